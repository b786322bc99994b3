import { readFileSync } from 'node:fs';

// The kernel's last-pid counter and what it takes to read new pids from it, shared by the monitor's
// sampler and the hook's one-shot reader (which must not load the sampler's native code).

/** Beyond this many new pids since the last look, listing the table is cheaper than probing each. */
const MAX_PIDS_TO_PROBE = 2000;

/**
 * "0.00 0.01 0.05 1/79 31036\n": the last field is the last pid allocated in this PID namespace. Parsed
 * from the bytes, since this runs several times a second; -1 when the text is not of that shape.
 */
export function lastPidOf(bytes: Uint8Array, length: number): number {
  let end = length;
  while (end > 0 && (bytes[end - 1] === 0x0a || bytes[end - 1] === 0x20)) end--;
  let start = end;
  while (start > 0 && bytes[start - 1]! >= 0x30 && bytes[start - 1]! <= 0x39) start--;
  if (start === end || end - start > 10 || (start > 0 && bytes[start - 1] !== 0x20)) return -1;
  let pid = 0;
  for (let i = start; i < end; i++) pid = pid * 10 + (bytes[i]! - 0x30);
  return pid;
}

/**
 * The pids allocated after `cursor` up to `last` (the counter now), to probe one by one; null when the
 * table must be listed instead (no counter, a first look, or too many).
 */
export function pidsBornSince(
  cursor: number | null,
  last: number,
  pidMax: number,
): { cursor: number; pids: number[] | null } {
  if (last <= 0) return { cursor: cursor ?? 0, pids: null };
  if (cursor === null) return { cursor: last, pids: null };
  if (last === cursor) return { cursor, pids: [] };
  // Allocation wraps at pid_max back to the bottom of the range.
  const count = last > cursor ? last - cursor : pidMax - cursor + last;
  if (count > MAX_PIDS_TO_PROBE) return { cursor: last, pids: null };
  const pids: number[] = [];
  for (let i = 1, pid = cursor + 1; i <= count; i++, pid++) {
    if (pid >= pidMax) pid = 1;
    pids.push(pid);
  }
  return { cursor: last, pids };
}

export function readPidMax(procRoot: string): number {
  try {
    const n = Number(readFileSync(`${procRoot}/sys/kernel/pid_max`, 'latin1').trim());
    return Number.isSafeInteger(n) && n > 1 ? n : 4_194_304;
  } catch {
    return 4_194_304;
  }
}

export function readBootTimeMs(procRoot: string): number {
  const text = readFileSync(`${procRoot}/stat`, 'latin1');
  const match = /^btime (\d+)$/m.exec(text);
  if (!match) throw new Error(`${procRoot}/stat has no btime line`);
  return Number(match[1]) * 1000;
}
