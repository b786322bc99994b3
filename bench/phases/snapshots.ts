import { spawnSync } from 'node:child_process';
import si from 'systeminformation';
import { LinuxSampler } from '../../main/core/sampling/linux/linux-sampler';
import { runFloor, type FloorBinary } from '../lib/c-floor';
import { selfCpuMicros, totalCpuMicros } from '../lib/cpu-clock';
import { parsePs, PS_ARGS } from '../lib/ps-parse';
import { sleep } from '../lib/wait';

export type Method = 'corral-cold' | 'corral-warm' | 'ps' | 'ps-list' | 'systeminformation' | 'c-floor';

export const METHOD_LABELS: Record<Method, string> = {
  'corral-cold': 'Corral sampler, cold',
  'corral-warm': 'Corral sampler, warm',
  ps: 'ps -e -o … spawned + parsed',
  'ps-list': 'ps-list',
  systeminformation: 'systeminformation.processes()',
  'c-floor': 'C full-scan floor',
};

/** Per-snapshot figures of one method: one entry per round. */
export interface MethodResult {
  method: Method;
  cpuMs: number[];
  wallMs: number[];
  /** Processes the method returned in each round (sanity check that each saw the whole table). */
  records: number[];
  /** Why the method was not measured. */
  missing?: string;
}

export interface SnapshotOptions {
  rounds: number;
  /** Snapshots per round for the cheap methods (per-snapshot figures are the round's mean). */
  perRound: number;
  floor: FloorBinary;
  markerKeys: ReadonlySet<string>;
}

export type PsList = () => Promise<unknown[]>;

/** ps-list is optional: measured when installed, reported as not installed otherwise. */
export async function loadPsList(): Promise<PsList | string> {
  const name = 'ps-list';
  try {
    const mod = (await import(name)) as { default: PsList };
    return mod.default;
  } catch {
    return 'not installed';
  }
}

interface Timed {
  cpuMicros: number;
  wallMs: number;
  records: number;
}

/** CPU (self + reaped children) and wall time around `count` runs of a synchronous or async snapshot. */
async function timed(
  count: number,
  run: () => number | Promise<number>,
  withChildren: boolean,
): Promise<Timed> {
  const clock = withChildren ? totalCpuMicros : selfCpuMicros;
  const c0 = clock();
  const w0 = performance.now();
  let records = 0;
  for (let i = 0; i < count; i++) records = await run();
  return { cpuMicros: (clock() - c0) / count, wallMs: (performance.now() - w0) / count, records };
}

function psSnapshot(): number {
  const out = spawnSync('ps', PS_ARGS, {
    encoding: 'utf8',
    env: { LC_ALL: 'C', PATH: process.env.PATH ?? '/usr/bin:/bin' },
    maxBuffer: 64 << 20,
  });
  if (out.status !== 0) throw new Error(`ps failed: ${out.stderr}`);
  return parsePs(out.stdout).length;
}

/**
 * Rounds of every method, interleaved so drift in the machine's load hits them all alike. The cold
 * sampler is a new LinuxSampler per snapshot (its constructor's getconf calls not counted): it reads
 * stat, cmdline and environ of every process; the warm one re-reads only stat for processes it knows.
 */
export async function measureSnapshots(
  options: SnapshotOptions,
  psList: PsList | string,
): Promise<MethodResult[]> {
  const results = new Map<Method, MethodResult>();
  const add = (method: Method, t: Timed): void => {
    const r = results.get(method) ?? { method, cpuMs: [], wallMs: [], records: [] };
    r.cpuMs.push(t.cpuMicros / 1000);
    r.wallMs.push(t.wallMs);
    r.records.push(t.records);
    results.set(method, r);
  };
  const warm = new LinuxSampler({ markerKeys: options.markerKeys });
  warm.sampleAll();
  psSnapshot();
  if (typeof psList !== 'string') await psList();
  await si.processes();
  let lastSiAt = performance.now();

  for (let round = 0; round < options.rounds; round++) {
    const cold = new LinuxSampler({ markerKeys: options.markerKeys });
    add('corral-cold', await timed(1, () => cold.sampleAll().length, false));
    // Its kept descriptors count against the process's budget, which the warm sampler shares.
    cold.close();
    add('corral-warm', await timed(options.perRound, () => warm.sampleAll().length, false));
    add('ps', await timed(options.perRound, psSnapshot, true));
    if (typeof psList !== 'string')
      add('ps-list', await timed(options.perRound, async () => (await psList()).length, true));
    if ('path' in options.floor) {
      const its = runFloor(options.floor.path, options.perRound);
      const mean = (f: (i: (typeof its)[number]) => number): number =>
        its.reduce((s, i) => s + f(i), 0) / its.length;
      add('c-floor', {
        cpuMicros: mean((i) => i.cpuMicros),
        wallMs: mean((i) => i.wallMicros) / 1000,
        records: its[0]!.processes,
      });
    }
    // systeminformation returns its previous result when called again within 500 ms.
    const wait = 550 - (performance.now() - lastSiAt);
    if (wait > 0) await sleep(wait);
    add('systeminformation', await timed(1, async () => (await si.processes()).list.length, true));
    lastSiAt = performance.now();
  }

  const out = [...results.values()];
  if (typeof psList === 'string')
    out.push({ method: 'ps-list', cpuMs: [], wallMs: [], records: [], missing: psList });
  if ('missing' in options.floor)
    out.push({ method: 'c-floor', cpuMs: [], wallMs: [], records: [], missing: options.floor.missing });
  warm.close();
  return out;
}
