// Corral's own cost while a fork storm runs beside the 4,000: the shipped `corral watch --json` (built CLI)
// watches the table quiet, then while a fake agent's tool call leaves `while :; do /bin/true; done`
// running, in one run, side by side. Its CPU and RSS come from /proc/<pid>/stat and status; its events
// are the lines it writes; the storm's births are the pid counter's advance (/proc/loadavg: in the
// bench's PID namespace, every pid handed out).
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BenchAgent } from '../lib/fake-agent-driver';
import { processCpuSeconds } from '../lib/proc-cpu';
import { killGroup } from '../lib/populations';
import { startShippedChild } from '../lib/shipped-child';
import { sleep } from '../lib/wait';

const CLI = fileURLToPath(new URL('../../bin/corral.mjs', import.meta.url));

export interface StormCostPlan {
  warmupSeconds: number;
  windowSeconds: number;
}

export interface StormWindow {
  cpuPercent: number;
  /** Highest VmRSS read (every second) in the window, MB. */
  peakRssMb: number;
  events: number;
  eventsPerSecond: number;
  bytesPerSecond: number;
  /** Pids handed out a minute during the window (the storm's births, plus the bench's few). */
  birthsPerMinute: number;
  /** Events by type in the window. */
  types: Record<string, number>;
  loadavg: number[];
}

export interface StormCost {
  quiet: StormWindow;
  storm: StormWindow;
  /** The storm kept on after its first window: does the cost stay flat? */
  stormLater: StormWindow;
  errors: string;
}

function rssMb(pid: number): number {
  try {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'latin1'))?.[1];
    return kb ? Number(kb) / 1024 : 0;
  } catch {
    return 0;
  }
}

const lastPid = (): number =>
  Number(readFileSync('/proc/loadavg', 'latin1').trim().split('/')[1]!.split(' ')[1]);

class EventCounter {
  lines = 0;
  bytes = 0;
  types: Record<string, number> = {};
  private rest = '';

  constructor(child: ChildProcess) {
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      this.bytes += Buffer.byteLength(d);
      const parts = (this.rest + d).split('\n');
      this.rest = parts.pop()!;
      for (const line of parts) {
        this.lines++;
        const type = /"type":"([^"]+)"/.exec(line)?.[1] ?? '?';
        this.types[type] = (this.types[type] ?? 0) + 1;
      }
    });
  }
}

async function measureWindow(pid: number, counter: EventCounter, seconds: number): Promise<StormWindow> {
  const cpu0 = processCpuSeconds(pid) ?? 0;
  const lines0 = counter.lines;
  const bytes0 = counter.bytes;
  const types0 = { ...counter.types };
  const pid0 = lastPid();
  const t0 = performance.now();
  let peak = 0;
  for (let i = 0; i < seconds; i++) {
    await sleep(1000);
    peak = Math.max(peak, rssMb(pid));
  }
  const elapsed = (performance.now() - t0) / 1000;
  const events = counter.lines - lines0;
  const types: Record<string, number> = {};
  for (const [t, n] of Object.entries(counter.types))
    if (n - (types0[t] ?? 0) > 0) types[t] = n - (types0[t] ?? 0);
  return {
    cpuPercent: (((processCpuSeconds(pid) ?? 0) - cpu0) / elapsed) * 100,
    peakRssMb: Math.round(peak * 10) / 10,
    events,
    eventsPerSecond: events / elapsed,
    bytesPerSecond: (counter.bytes - bytes0) / elapsed,
    birthsPerMinute: ((lastPid() - pid0) / elapsed) * 60,
    types,
    loadavg: loadavg().map((l) => Math.round(l * 100) / 100),
  };
}

/** Measures over the table as it is (the caller spawned the population); removes what it started. */
export async function measureStormCost(plan: StormCostPlan): Promise<StormCost> {
  const dir = mkdtempSync(join(tmpdir(), 'corral-bench-storm-'));
  const agent = await BenchAgent.start();
  const watch = startShippedChild([CLI, 'watch', '--json'], dir, 'watch', 'pipe');
  let errors = '';
  watch.stderr!.setEncoding('utf8').on('data', (d: string) => (errors = (errors + d).slice(-2000)));
  const counter = new EventCounter(watch);
  let stormPgid: number | null = null;
  try {
    await sleep(plan.warmupSeconds * 1000);
    const quiet = await measureWindow(watch.pid!, counter, plan.windowSeconds);
    const call = await agent.toolCall('(while :; do /bin/true; done) >/dev/null 2>&1 &');
    stormPgid = call.pid;
    await agent.exited(call.id);
    const storm = await measureWindow(watch.pid!, counter, plan.windowSeconds);
    const stormLater = await measureWindow(watch.pid!, counter, plan.windowSeconds);
    return { quiet, storm, stormLater, errors: errors.trim() };
  } finally {
    if (stormPgid !== null) killGroup(stormPgid);
    killGroup(watch.pid!);
    agent.close();
    await sleep(300);
    killGroup(agent.pid);
    rmSync(dir, { recursive: true, force: true });
  }
}

export function stormCostPlan(quick: boolean): StormCostPlan {
  return quick ? { warmupSeconds: 20, windowSeconds: 30 } : { warmupSeconds: 60, windowSeconds: 60 };
}
