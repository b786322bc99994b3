import type { PidCounterFeed } from '../core/sampling/pid-counter-feed';

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
 *
 * The answers' own readings are as far apart as the agent's calls, often more than maxAgeTicks; the
 * monitor in the same process reads the counter every poll (`monitor`: its PidCounterFeed), stamped on
 * the monotonic clock. Such a reading is placed on the tick clock through the latest answer's own
 * reading (`note`'s monoMs), conservatively: see monitorTickAtMost.
 */
export class PidCounterReadings {
  private readonly lastPids: number[] = [];
  private readonly ticks: number[] = [];
  private next = 0;
  /** The latest note's monotonic time and tick, which place the monitor's readings on the tick clock. */
  private anchor: { monoMs: number; ticks: number } | null = null;

  constructor(
    private readonly maxAgeTicks: number,
    private readonly monitor: { feed: PidCounterFeed; tickMs: number } | null = null,
  ) {}

  /**
   * `lastPid` read from /proc/loadavg, then `ticks` from /proc/uptime (in that order); `monoMs`, the
   * monitor feed's clock (`feed.now()`), read after the counter and before /proc/uptime.
   */
  note(lastPid: number, ticks: number, monoMs?: number): void {
    if (monoMs !== undefined) this.anchor = { monoMs, ticks };
    if (lastPid <= 0) return;
    this.lastPids[this.next] = lastPid;
    this.ticks[this.next] = ticks;
    this.next = (this.next + 1) % KEPT;
  }

  /**
   * The counter at the latest reading taken in a tick before `startKey` and no more than maxAgeTicks
   * before `nowTicks`: no process of a call begun at `startKey` has a pid at or below it (counting
   * down from the counter now, with the wrap at pid_max). Null when no reading qualifies. Of an
   * answer's reading and the monitor's, the later one: either is a floor, the later one the higher.
   */
  before(startKey: number, nowTicks: number): number | null {
    const own = this.ownBefore(startKey, nowTicks);
    const monitor = this.monitorBefore(startKey, nowTicks);
    if (!monitor) return own?.lastPid ?? null;
    if (!own) return monitor.lastPid;
    return monitor.tick > own.tick ? monitor.lastPid : own.lastPid;
  }

  private ownBefore(startKey: number, nowTicks: number): { lastPid: number; tick: number } | null {
    // Newest first: readings are noted in the order they were taken.
    for (let k = 1; k <= this.ticks.length; k++) {
      const i = (this.next - k + KEPT) % KEPT;
      const t = this.ticks[i]!;
      if (nowTicks - t > this.maxAgeTicks) return null;
      if (t < startKey) return { lastPid: this.lastPids[i]!, tick: t };
    }
    return null;
  }

  private monitorBefore(startKey: number, nowTicks: number): { lastPid: number; tick: number } | null {
    const anchor = this.anchor;
    if (!this.monitor || !anchor) return null;
    const { feed, tickMs } = this.monitor;
    let tick = 0;
    const reading = feed.newest((atMs) => {
      // Taken after the anchor: nothing places it before the anchor's tick. (The monitor and the hook
      // server share a thread, so none is during an answer; one after an older anchor is skipped.)
      if (atMs > anchor.monoMs) return false;
      tick = monitorTickAtMost(anchor, atMs, tickMs);
      if (nowTicks - tick > this.maxAgeTicks) return 'too old';
      return tick < startKey;
    });
    return reading && { lastPid: reading.lastPid, tick };
  }
}

/**
 * A tick no earlier than the one a monitor reading stamped `atMs` (monotonic) was taken in, from an
 * anchor: the monotonic `monoMs` read before /proc/uptime gave `ticks`. /proc/uptime and start times
 * count CLOCK_BOOTTIME truncated to centiseconds (USER_HZ is 100), so at the anchor's uptime read the
 * boot clock was below (ticks + 1) ticks. From the reading to the anchor's monotonic read at least
 * `monoMs − atMs` passed on the boot clock too (it runs as the monotonic one does, plus time suspended:
 * never less), and that read came before the uptime read: the reading was taken below
 * (ticks + 1) · tickMs − (monoMs − atMs) on the boot clock, before the end of the tick returned here.
 * So, as for an answer's own reading, a tick below a call's start proves the reading came first.
 * (Time suspended only makes a reading look newer than it is: fine for its age, as no pid is handed
 * out while suspended.)
 */
export function monitorTickAtMost(
  anchor: { monoMs: number; ticks: number },
  atMs: number,
  tickMs: number,
): number {
  return anchor.ticks - Math.floor((anchor.monoMs - atMs) / tickMs);
}
