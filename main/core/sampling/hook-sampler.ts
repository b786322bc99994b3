import type { ProcessSampler } from './process-sampler';
import { HookProcReader } from './linux/hook-proc-reader';
import { listeningTcpPorts } from './linux/listening-ports';
import { portListeners, type PortListener } from './linux/port-listeners';
import { readCwds } from './linux/proc-cwd';

/**
 * What the hooks read of the system, and the only file of sampling they import: a one-shot hook runs
 * after every shell command an agent runs, so nothing here loads native code, a config or a database.
 * The running service's own reads for hooks are in service-hook-reads.ts.
 */

/** What a hook reads of the process table: a few pids, the pid list, and the pids born since a look. */
export type HookSampler = Pick<ProcessSampler, 'sampleSome' | 'listPids' | 'newPidsSince'> & {
  /**
   * A process's start (ProcessRecord.startKey) from its stat alone, null when sampleSome would find no
   * process there (gone, a thread, unreadable): the cheap look for walking down the pid counter.
   */
  startKeyOf?(pid: number): number | null;
  /** Milliseconds per unit of ProcessRecord.startKey; absent: not known, so no start is derived from a duration. */
  startKeyMs?: number;
  /** Now, in the unit of ProcessRecord.startKey. */
  nowKey?(): number;
  /** Where the pid counter wraps (pid_max): with newPidsSince, a hook walks down from the last pid (pids-since-start.ts). */
  pidMax?(): number;
};

/**
 * A macOS sampler with the unit of its ProcessRecord.startKey: libproc's start time (pbi_start_tvsec and
 * _tvusec, wall-clock seconds since the epoch) in microseconds (proc-info-decoders.ts), so now is the
 * wall clock in the same unit. Without `nowKey` the one-shot hook could derive no call's start from a
 * duration there, and Claude Code's PostToolUse alone would get no note.
 */
export function withDarwinStartUnits<S extends HookSampler>(
  sampler: S,
): S & { startKeyMs: number; nowKey(): number } {
  return Object.assign(sampler, { startKeyMs: 0.001, nowKey: () => Date.now() * 1000 });
}

/** Linux: the hook's own light /proc reader. Elsewhere the platform's sampler, loaded only then. */
export async function createHookSampler(markerKeys: ReadonlySet<string>): Promise<HookSampler> {
  if (process.platform === 'linux') return new HookProcReader(markerKeys);
  const { createSampler } = await import('./create-sampler');
  const sampler = createSampler({ markerKeys });
  return process.platform === 'darwin' ? withDarwinStartUnits(sampler) : sampler;
}

/** A process's working directory (Linux), null when it cannot be read. */
export function cwdOf(pid: number): string | null {
  return readCwds([pid]).get(pid) ?? null;
}

export { listeningTcpPorts, portListeners, type PortListener };
