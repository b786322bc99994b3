import { Buckets } from './buckets';
import { ShellLoops } from './shell-loops';

/** A rate over less time than this is too noisy (a build's first burst): it is divided by this much. */
const MIN_SPAN_MS = 2_000;

/**
 * Births of one group over the recent past and the rate they make; and the command lines that were
 * born (once read after their exec; see spawn-births), each with its own rate, up to a cap of
 * distinct command lines.
 */
export class BirthWindow {
  private readonly births = new Buckets();
  private readonly commands = new Map<string, Buckets>();
  /** The same births by the shell that started them (loops). */
  readonly loops = new ShellLoops();
  /** Births counted without being read (pids the counter announced between two of the group's births). */
  unseen = 0;

  constructor(
    /** When counting began (the group's first sight): a rate is never over more time than this. */
    private readonly since: number,
    private readonly maxCommands = 200,
  ) {}

  get total(): number {
    return this.births.total;
  }

  add(at: number, count: number, seen: boolean): void {
    if (count <= 0) return;
    this.births.add(at, count);
    if (!seen) this.unseen += count;
  }

  /** `count` of the births at `at` ran `command`. */
  addCommand(at: number, command: string, count: number): void {
    let buckets = this.commands.get(command);
    if (!buckets) {
      if (this.commands.size >= this.maxCommands) return;
      buckets = new Buckets();
      this.commands.set(command, buckets);
    }
    buckets.add(at, count);
  }

  /** Births in the last `windowMs` (to bucket precision), at most the last minute. */
  countWithin(now: number, windowMs: number): number {
    return this.births.within(now, windowMs);
  }

  /** Births a minute over the last `windowMs` (or since counting began, when that is shorter). */
  perMinute(now: number, windowMs: number): number {
    return this.scale(this.births.within(now, windowMs), now, windowMs);
  }

  /** The most started command line's births a minute over the last `windowMs`, as perMinute. */
  topCommandPerMinute(now: number, windowMs: number): number {
    let most = 0;
    for (const buckets of this.commands.values()) most = Math.max(most, buckets.within(now, windowMs));
    return this.scale(most, now, windowMs);
  }

  /** The most repeated command lines since counting began, most first. */
  topCommands(limit = 5): Array<{ command: string; count: number }> {
    return [...this.commands]
      .map(([command, b]) => ({ command, count: b.total }))
      .sort((a, b) => b.count - a.count || (a.command < b.command ? -1 : 1))
      .slice(0, limit);
  }

  /** The busiest shell loop's starts a minute over the last `windowMs`, as perMinute (ShellLoops). */
  topLoopPerMinute(now: number, windowMs: number): number {
    return this.scale(this.loops.topLoop(now, windowMs), now, windowMs);
  }

  private scale(count: number, now: number, windowMs: number): number {
    const span = Math.max(MIN_SPAN_MS, Math.min(windowMs, now - this.since));
    return Math.round((count * 60_000) / span);
  }
}
