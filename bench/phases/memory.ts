import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface MemoryUsage {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

export interface MemoryResult {
  gcExposed: boolean;
  samples: number;
  processes: number;
  withHistory: number;
  historyPoints: number;
  historyBytes: number;
  simulateSeconds: number;
  before: MemoryUsage;
  after: MemoryUsage;
}

const CHILD = fileURLToPath(new URL('../memory-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Runs the simulation in a fresh Node process (with --expose-gc), so the resident set it reports is
 * the monitor's and not what the rest of the bench left on the heap.
 */
export function measureMemory(hours: number, processes: number): MemoryResult {
  const out = spawnSync(
    process.execPath,
    // The young generation as small as the desktop app's worker runs it (resourceLimits in
    // main/core/worker/worker-service.ts): the default lets V8 keep tens of MB of nursery resident.
    ['--expose-gc', '--max-semi-space-size=1', '--import', 'tsx', CHILD, String(hours), String(processes)],
    {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    },
  );
  if (out.status !== 0) throw new Error(`memory simulation failed (${out.status}): ${out.stderr}`);
  return JSON.parse(out.stdout.trim().split('\n').pop()!) as MemoryResult;
}
