import type { Settings } from '../../../../shared/model';
import { DEFAULT_QUIET_POLL_INTERVAL_MS } from '../../../../shared/settings-table';
import { isStall } from './stall';
import { quietEnoughToStretch, watchPace, type WatchPaceInputs } from './watch-pace';

/** What the schedule runs, and what it reads to set its pace. */
export interface ScheduleHost {
  /** A poll: new pids, agents' processes, now and then the whole table. */
  poll(): void;
  /** The cheap look between polls. */
  watch(): void;
  /** A poll came so late that readings must start afresh (stall.ts). */
  stalled(): void;
  settings(): Settings;
  wholeTableWanted(): boolean;
  paceInputs(): Omit<WatchPaceInputs, 'waitsForExits'>;
}

/**
 * When the monitor looks. One timer serves both paces, so a poll and a watch never cost two wake-ups,
 * and each run is scheduled after the previous one finished, so runs never overlap. Where the sampler
 * waits for exits in a thread of its own, an exit of a followed process wakes a look at once.
 */
export class MonitorSchedule {
  private timer: NodeJS.Timeout | null = null;
  /** Monotonic times (performance.now()). */
  private nextPollAt = 0;
  private lastLookAt = 0;
  private lastPollAt = 0;
  /** The interval the coming poll was scheduled after: a stretched one spans more than one poll's time. */
  private spanMs: number;
  private stopExitWait: (() => void) | null = null;
  private exitLookPending = false;
  private running = false;

  constructor(
    private readonly host: ScheduleHost,
    private readonly waitForExits: ((onExit: () => void) => (() => void) | null) | undefined,
  ) {
    this.spanMs = host.settings().pollIntervalMs;
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** The interval the coming poll was scheduled after (ms): the settings' poll interval, or the quiet one. */
  get pollIntervalMs(): number {
    return this.spanMs;
  }

  /** How many of the settings' poll intervals the coming poll covers: 1, or more after a quiet stretch. */
  get pollSpan(): number {
    return Math.max(1, Math.round(this.spanMs / this.host.settings().pollIntervalMs));
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    // Exits of agents' processes and their parents then wake a look at once, between the timer's looks.
    this.stopExitWait = this.waitForExits?.(() => this.exitSignalled()) ?? null;
    this.host.poll();
    this.lastPollAt = this.lastLookAt = performance.now();
    this.spanMs = this.pollInterval();
    this.nextPollAt = this.lastPollAt + this.spanMs;
    this.arm();
  }

  stop(): void {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.stopExitWait?.();
    this.stopExitWait = null;
  }

  /** Brings the pending wake forward if the pace quickened (an agent's process came or went, a view opened). */
  repace(): void {
    if (!this.running || !this.timer) return;
    clearTimeout(this.timer);
    this.bringPollForward();
    this.arm();
  }

  watchInterval(): number | null {
    return watchPace(this.paceInputs());
  }

  /**
   * A followed process exited: its group is looked at now (its children, reparented, are read), not at the
   * next tick. Deferred to its own turn, since the sampler may say so while the monitor is mid-run.
   */
  private exitSignalled(): void {
    if (this.exitLookPending || !this.running) return;
    this.exitLookPending = true;
    setImmediate(() => {
      this.exitLookPending = false;
      if (!this.running) return;
      this.host.watch();
      this.repace();
    });
  }

  /** The coming poll at the pace as it stands now, if that is sooner than it was scheduled. */
  private bringPollForward(): void {
    const every = this.pollInterval();
    if (this.lastPollAt + every < this.nextPollAt) {
      this.spanMs = every;
      this.nextPollAt = this.lastPollAt + every;
    }
  }

  private arm(): void {
    const watchEvery = this.watchInterval();
    const due =
      watchEvery === null ? this.nextPollAt : Math.min(this.nextPollAt, this.lastLookAt + watchEvery);
    this.timer = setTimeout(() => this.wake(), Math.max(0, due - performance.now()));
  }

  private wake(): void {
    if (!this.running) return;
    const at = performance.now();
    // A poll does the watch's work too: it reads new pids and every agent's process.
    if (at >= this.nextPollAt - 1) {
      if (isStall(at - this.lastPollAt, this.spanMs)) this.host.stalled();
      this.host.poll();
      this.lastPollAt = at;
      this.spanMs = this.pollInterval();
      this.nextPollAt = at + this.spanMs;
    } else if (this.watchInterval() !== null) {
      // (A timer set while busy may come due after the agents went quiet: then it only reschedules.)
      this.host.watch();
      // A quiet agent's process born or gone, seen by a look at the pid counter: polls stretch no more.
      this.bringPollForward();
    }
    this.lastLookAt = at;
    if (this.running) this.arm();
  }

  /** The settings' poll interval, or their quiet one while nothing moves (quietEnoughToStretch). */
  private pollInterval(): number {
    const settings = this.host.settings();
    const quiet = quietEnoughToStretch({
      ...this.paceInputs(),
      wholeTableWanted: this.host.wholeTableWanted(),
    });
    if (!quiet) return settings.pollIntervalMs;
    return Math.max(settings.pollIntervalMs, settings.quietPollIntervalMs ?? DEFAULT_QUIET_POLL_INTERVAL_MS);
  }

  private paceInputs(): WatchPaceInputs {
    return { ...this.host.paceInputs(), waitsForExits: this.stopExitWait !== null };
  }
}
