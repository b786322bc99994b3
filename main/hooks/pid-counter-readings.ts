/** Readings kept: the service takes one per answer, and only the latest before a call's start is used. */
const KEPT = 16;

/**
 * The kernel's last-allocated pid (/proc/loadavg) as the running service read it at moments it knows
 * in clock ticks: every pid allocated at or below a value read before a tool call began belongs to a
 * process forked before the call, so the walk down the pid counter for the call's processes
 * (recordsSinceStart) can stop there instead of probing every pid freed since an older process that is
 * still alive. A reading's tick must be taken after its counter (`note` says how), and only a tick
 * strictly before the call's start proves anything: within the start's own tick, a process forked
 * before the reading still counts as started with the call.
 *
 * Pid numbers wrap at pid_max, and a value read long ago may have been handed out again since: a
 * reading older than `maxAgeTicks` is not used (a full lap of pid numbers in that time takes over
 * pid_max / 30 forks per second: 1,100 a second at pid_max 32,768).
 */
export class PidCounterReadings {
  private readonly lastPids: number[] = [];
  private readonly ticks: number[] = [];
  private next = 0;

  constructor(private readonly maxAgeTicks: number) {}

  /** `lastPid` read from /proc/loadavg, then `ticks` from /proc/uptime (in that order). */
  note(lastPid: number, ticks: number): void {
    if (lastPid <= 0) return;
    this.lastPids[this.next] = lastPid;
    this.ticks[this.next] = ticks;
    this.next = (this.next + 1) % KEPT;
  }

  /**
   * The counter at the latest reading taken in a tick before `startKey` and no more than maxAgeTicks
   * before `nowTicks`: no process of a call begun at `startKey` has a pid at or below it (counting
   * down from the counter now, with the wrap at pid_max). Null when no reading qualifies.
   */
  before(startKey: number, nowTicks: number): number | null {
    // Newest first: readings are noted in the order they were taken.
    for (let k = 1; k <= this.ticks.length; k++) {
      const i = (this.next - k + KEPT) % KEPT;
      const t = this.ticks[i]!;
      if (nowTicks - t > this.maxAgeTicks) return null;
      if (t < startKey) return this.lastPids[i]!;
    }
    return null;
  }
}
