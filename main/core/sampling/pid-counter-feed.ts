/** Readings kept at least SPACING_MS apart: 64 of them reach further back than any use of one (30 s). */
const KEPT = 64;
const SPACING_MS = 500;

/** One reading: the kernel's last-allocated pid, and the monotonic clock read after it. */
export interface PidCounterReading {
  lastPid: number;
  atMs: number;
}

/**
 * The kernel's pid counter (/proc/loadavg) each time the monitor's sampler reads it anyway, with this
 * thread's monotonic clock read just after: the hook server in the same process stops its walk down
 * the pid numbers at a reading taken before a tool call began (main/hooks/pid-counter-readings.ts),
 * so a call long after the previous hook answer still has a recent one. Adds no system call: the clock
 * is the vDSO's. Not shared across threads (performance.now() has a time origin per thread).
 *
 * The monitor reads the counter every poll and, while agents are busy, many times a second: readings are
 * kept at least SPACING_MS apart (the newest is always kept too), so the ones before a long call's start
 * are still there at its end.
 */
export class PidCounterFeed {
  private readonly lastPids = new Float64Array(KEPT);
  private readonly ats = new Float64Array(KEPT);
  private count = 0;
  private next = 0;
  /** The newest reading when it came too soon after the newest kept one (0: none). */
  private latestPid = 0;
  private latestAt = 0;

  constructor(readonly now: () => number = () => performance.now()) {}

  /** Called right after `lastPid` was read: the clock is read here, after the counter. */
  note(lastPid: number): void {
    if (lastPid <= 0) return;
    const at = this.now();
    const newestKept = this.count === 0 ? -Infinity : this.ats[(this.next - 1 + KEPT) % KEPT]!;
    if (at - newestKept < SPACING_MS) {
      this.latestPid = lastPid;
      this.latestAt = at;
      return;
    }
    this.lastPids[this.next] = lastPid;
    this.ats[this.next] = at;
    this.next = (this.next + 1) % KEPT;
    this.count = Math.min(this.count + 1, KEPT);
    this.latestPid = 0;
  }

  /**
   * The newest reading for which `usable(atMs)` is true, looking from the newest to the oldest and
   * stopping at the first for which it is 'too old'; null when none is usable.
   */
  newest(usable: (atMs: number) => boolean | 'too old'): PidCounterReading | null {
    if (this.latestPid > 0) {
      const verdict = usable(this.latestAt);
      if (verdict === 'too old') return null;
      if (verdict) return { lastPid: this.latestPid, atMs: this.latestAt };
    }
    for (let k = 1; k <= this.count; k++) {
      const i = (this.next - k + KEPT) % KEPT;
      const verdict = usable(this.ats[i]!);
      if (verdict === 'too old') return null;
      if (verdict) return { lastPid: this.lastPids[i]!, atMs: this.ats[i]! };
    }
    return null;
  }
}
