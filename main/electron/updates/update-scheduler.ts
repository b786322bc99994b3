import { updateCheckBlocked, type UpdateGateState } from './update-gate';

export const DAY_MS = 24 * 60 * 60 * 1000;
/** A check that found a stop running is tried again this much later, not a whole day. */
export const RETRY_AFTER_STOP_MS = 10 * 60 * 1000;

export interface UpdateSchedulerOptions {
  /** Asks the update server and downloads what it finds (electron-updater's checkForUpdates). */
  check: () => Promise<unknown>;
  gate: () => UpdateGateState;
  log: (line: string) => void;
  intervalMs?: number;
}

/** Checks at start and then daily; a check is skipped (and said why) when the gate says no. */
export class UpdateScheduler {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;

  constructor(private readonly options: UpdateSchedulerOptions) {}

  start(): void {
    void this.tick();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** One check now, unless blocked; returns why it did not check, or null after checking. */
  async tick(): Promise<string | null> {
    if (this.stopped) return 'stopped';
    const blocked = updateCheckBlocked(this.options.gate());
    const interval = this.options.intervalMs ?? DAY_MS;
    if (blocked) {
      this.options.log(`update check skipped: ${blocked}`);
      this.schedule(blocked === 'a stop is running' ? Math.min(RETRY_AFTER_STOP_MS, interval) : interval);
      return blocked;
    }
    try {
      await this.options.check();
    } catch (err) {
      this.options.log(`update check failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    this.schedule(interval);
    return null;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), ms);
    this.timer.unref?.();
  }
}
