import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { bundleForNode } from '../lib/plain-node';
import type { MonitorCost, MonitorCostPlan } from './monitor-cost';

const CHILD = fileURLToPath(new URL('../monitor-child.ts', import.meta.url));

/**
 * How long the monitor runs before it is measured. V8 compiles code that runs once a second only after
 * minutes (each function must be called often enough to count as hot), so the first minutes carry its
 * compiler's threads. Its memory reducer, armed by start-up's full GC, collects the idle heap once its
 * watchdog sees no GC for 100 s (about 107 s after start), once more 100 s later, and then stops until
 * the heap grows again: 15-80 ms of main-thread pause each, plus concurrent marking (traced with
 * --trace-gc at 4,000 processes). The steady state is measured after all of that, and the cost from
 * `earlyFromSeconds` to the end of the warm-up is reported beside it.
 */
export interface MonitorWarmup {
  warmupSeconds: number;
  earlyFromSeconds: number;
}

export interface MonitorCostRun {
  cost: MonitorCost;
  /** CPU % of one core from `fromSeconds` after start until the warm-up ended (`toSeconds`). */
  warmup: { fromSeconds: number; toSeconds: number; percent: number };
  errors: { count: number; last: string | null };
}

/**
 * Runs the monitor in a Node process of its own, from bundled JavaScript as the app ships it, so the CPU
 * measured is the monitor's: not the bench's heap, and not tsx's loader.
 */
export async function measureMonitorCostInOwnProcess(
  plan: MonitorCostPlan & MonitorWarmup,
): Promise<MonitorCostRun> {
  const script = await bundleForNode(CHILD);
  const child = spawn(process.execPath, [script, JSON.stringify(plan)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`monitor child exited ${code}: ${stderr.trim()}`);
  return JSON.parse(stdout.trim().split('\n').pop()!) as MonitorCostRun;
}
