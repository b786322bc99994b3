import type { ProcessRecord } from '../model/process-record';

/** Reads each pid, skipping the ones that vanished: processes exit while a table is read. */
export function readEach(
  pids: Iterable<number>,
  readOne: (pid: number) => ProcessRecord | null,
): ProcessRecord[] {
  const out: ProcessRecord[] = [];
  for (const pid of pids) {
    const record = readOne(pid);
    if (record) out.push(record);
  }
  return out;
}

/** After a full listing: forgets what is cached for every pid that is no longer there. */
export function forgetMissing(
  cached: Iterable<number>,
  listed: readonly number[],
  forget: (pid: number) => void,
): void {
  const alive = new Set(listed);
  for (const pid of [...cached]) if (!alive.has(pid)) forget(pid);
}
