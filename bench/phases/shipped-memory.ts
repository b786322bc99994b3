// Resident memory of what ships, as whole processes: `corral watch --json` and `corral serve` (no page,
// the built CLI through bin/corral.mjs) over the table as it is, from /proc/<pid>/status, beside a Node process that does nothing (the floor
// every Node program pays: mostly Node's own binary, mapped from disk).
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createdGroups,
  killGroup,
  liveCount,
  procCount,
  removeGroups,
  spawnPopulation,
} from '../lib/populations';
import { startShippedChild } from '../lib/shipped-child';
import { sleep } from '../lib/wait';

export interface ShippedMemoryPlan {
  /** After start, before the first reading: start-up's garbage collected, the first sweeps done. */
  warmupSeconds: number;
  readings: number;
  everySeconds: number;
}

/** kB, as /proc/<pid>/status gives them. */
export interface ResidentKb {
  rss: number;
  anon: number;
  file: number;
}

export interface ShippedMemory {
  tableSize: number;
  /** The highest RSS reading of each process, with its anonymous and file-backed parts. */
  watch: ResidentKb | null;
  serve: ResidentKb | null;
  nodeFloor: ResidentKb | null;
  node: string;
  missing: string[];
}

function residentOf(pid: number): ResidentKb | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'latin1');
    const kb = (key: string): number => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
    const r = { rss: kb('VmRSS'), anon: kb('RssAnon'), file: kb('RssFile') + kb('RssShmem') };
    return Number.isFinite(r.rss) ? r : null;
  } catch {
    return null;
  }
}

/**
 * Starts the three side by side (the CLI bundled as the shipped-CPU rows run it), reads each one's
 * resident set `readings` times after the warm-up and keeps its highest, then removes them by PGID.
 */
export async function measureShippedMemory(
  cli: string,
  plan: ShippedMemoryPlan,
  tableSize: () => number,
): Promise<ShippedMemory> {
  const dir = mkdtempSync(join(tmpdir(), 'corral-bench-memory-'));
  const started: ChildProcess[] = [];
  const start = (args: string[], name: string): ChildProcess => {
    const child = startShippedChild(args, dir, name, 'ignore');
    started.push(child);
    return child;
  };
  const missing: string[] = [];
  try {
    const watch = start([cli, 'watch', '--json'], 'watch');
    const serve = start([cli, 'serve', '--port', '0'], 'serve');
    const floor = start(['-e', 'setInterval(() => {}, 1 << 30)'], 'floor');
    const stderr = new Map<ChildProcess, string>();
    for (const c of started)
      c.stderr!.setEncoding('utf8').on('data', (d: string) => stderr.set(c, (stderr.get(c) ?? '') + d));
    await sleep(plan.warmupSeconds * 1000);
    const highest = new Map<ChildProcess, ResidentKb | null>();
    for (let i = 0; i < plan.readings; i++) {
      if (i > 0) await sleep(plan.everySeconds * 1000);
      for (const c of started) {
        const r = residentOf(c.pid!);
        const best = highest.get(c);
        if (r && (!best || r.rss > best.rss)) highest.set(c, r);
        else if (!r && best === undefined) highest.set(c, null);
      }
    }
    for (const [c, name] of [
      [watch, 'corral watch --json'],
      [serve, 'corral serve'],
    ] as const)
      if (!highest.get(c))
        missing.push(`${name} was not running: ${(stderr.get(c) ?? '').trim().slice(0, 200)}`);
    return {
      tableSize: tableSize(),
      watch: highest.get(watch) ?? null,
      serve: highest.get(serve) ?? null,
      nodeFloor: highest.get(floor) ?? null,
      node: process.version,
      missing,
    };
  } finally {
    for (const c of started) killGroup(c.pid!);
    await sleep(200);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The installed command's entry, running the built CLI (out/, `npm run build`) as the npm package does. */
const CLI = fileURLToPath(new URL('../../bin/corral.mjs', import.meta.url));
const BUILT = fileURLToPath(new URL('../../out/main/corral.js', import.meta.url));

export function shippedMemoryPlan(quick: boolean): ShippedMemoryPlan {
  return quick
    ? { warmupSeconds: 20, readings: 3, everySeconds: 5 }
    : { warmupSeconds: 60, readings: 7, everySeconds: 10 };
}

/**
 * Over `extra` processes of its own (spawned here and removed after), with the built CLI as it ships: its
 * chunks load after the heap is sized for a long-lived command (main/cli/long-lived-heap.ts), which a
 * single-file bundle would evaluate only after the rest of its top-level code.
 */
export async function measureShippedMemoryAt(extra: number, quick: boolean): Promise<ShippedMemory> {
  if (!existsSync(BUILT))
    return {
      tableSize: procCount(),
      watch: null,
      serve: null,
      nodeFloor: null,
      node: process.version,
      missing: ['out/main/corral.js not built (npm run build)'],
    };
  const before = new Set(createdGroups());
  const groups = (await spawnPopulation(extra)).map((g) => g.pgid);
  try {
    const alive = liveCount(groups);
    if (alive !== extra) throw new Error(`population should be ${extra} extra processes, found ${alive}`);
    return await measureShippedMemory(CLI, shippedMemoryPlan(quick), procCount);
  } finally {
    await removeGroups(createdGroups().filter((g) => !before.has(g)));
  }
}
