// When a late poll means the process was stalled (App Nap, SIGSTOP, a starved machine) rather than
// jitter: a CPU delta over the gap is then no reading of the last interval, and a hot streak that began
// before it must not count the gap as time spent hot. Measured on the monotonic clock, which stands still
// while the machine sleeps: the desktop app says a sleep itself (powerMonitor).

/** A gap longer than this many poll intervals (and at least STALL_FLOOR_MS) is a stall, not jitter. */
export const STALL_INTERVALS = 3;
export const STALL_FLOOR_MS = 5000;

export function isStall(sinceLastPollMs: number, pollIntervalMs: number): boolean {
  return sinceLastPollMs > Math.max(STALL_INTERVALS * pollIntervalMs, STALL_FLOOR_MS);
}
