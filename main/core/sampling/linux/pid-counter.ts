import { readFileSync, readlinkSync } from 'node:fs';

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

/**
 * When the kernel booted, on the wall clock, in ms: what a process's start time (clock ticks since boot)
 * counts from. btime (/proc/stat) gives whole seconds only, so start times built on it came out up to a
 * second early (a 0.3 s process looked older than a second); the wall clock less /proc/uptime (the clock
 * start times count on, in hundredths) is exact to about 10 ms. Both are shifted alike in a time namespace.
 */
export function readBootTimeMs(procRoot: string, now: () => number = Date.now): number {
  const text = readFileSync(`${procRoot}/stat`, 'latin1');
  const match = /^btime (\d+)$/m.exec(text);
  if (!match) throw new Error(`${procRoot}/stat has no btime line`);
  const btimeMs = Number(match[1]) * 1000;
  const fromUptime = bootTimeFromUptime(procRoot, now);
  // The kernel prints btime as the whole seconds of that same instant: the two agree within its second
  // (and a few ms for the reads), unless the wall clock was set between the two reads.
  return fromUptime !== null && fromUptime >= btimeMs - AGREE_MS && fromUptime < btimeMs + 1000 + AGREE_MS
    ? fromUptime
    : btimeMs;
}

const AGREE_MS = 50;

/** The wall clock less /proc/uptime (seconds with two decimals); null when that file is not readable. */
function bootTimeFromUptime(procRoot: string, now: () => number): number | null {
  let text: string;
  try {
    text = readFileSync(`${procRoot}/uptime`, 'latin1');
  } catch {
    return null;
  }
  const read = now();
  const uptime = uptimeMsOf(text);
  return uptime === null ? null : read - uptime;
}

/**
 * /proc/uptime's first field in milliseconds, parsed as the kernel prints it (seconds, a dot and two
 * digits): as a float, 2.03 s times 1000 comes out below 2030. Null for any other text.
 */
export function uptimeMsOf(text: string): number | null {
  const m = /^(\d+)\.(\d\d) /.exec(text);
  return m ? Number(m[1]) * 1000 + Number(m[2]) * 10 : null;
}

/** /proc/loadavg counts pids of this process's namespace: usable only when procRoot is that namespace's. */
export function counterMatchesProc(procRoot: string): boolean {
  try {
    return readlinkSync(`${procRoot}/self`) === String(process.pid);
  } catch {
    return false;
  }
}
