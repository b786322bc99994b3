/** Buckets births are counted in: fine enough for a 1 s window, few enough for a storm's minute. */
const BUCKET_MS = 250;
/** The longest span a rate is asked for; older buckets are dropped. */
const KEEP_MS = 60_000;
/** A rate over less time than this is too noisy (a build's first burst): it is divided by this much. */
const MIN_SPAN_MS = 2_000;

/**
 * Births of one group over the recent past, in time buckets, and the rate they make. Also the
 * commands that were born (seen ones; unseen ones as their seen neighbours' command, see spawn-births),
 * counted up to a cap of distinct command lines.
 */
export class BirthWindow {
  private readonly buckets: Array<[number, number]> = [];
  private readonly commands = new Map<string, number>();
  total = 0;
  /** Births counted without being read (pids the counter announced between two of the group's births). */
  unseen = 0;

  constructor(
    /** When counting began (the group's first sight): a rate is never over more time than this. */
    private readonly since: number,
    private readonly maxCommands = 200,
  ) {}

  add(at: number, count: number, seen: boolean): void {
    if (count <= 0) return;
    this.total += count;
    if (!seen) this.unseen += count;
    const start = at - (at % BUCKET_MS);
    const last = this.buckets[this.buckets.length - 1];
    if (last && last[0] === start) last[1] += count;
    else if (last && last[0] > start) {
      // Out of order (never expected: one clock): kept in the newest bucket.
      last[1] += count;
    } else this.buckets.push([start, count]);
    while (this.buckets.length > 0 && this.buckets[0]![0] < at - KEEP_MS) this.buckets.shift();
  }

  /** `count` births ran `command` (known once a birth was read after its exec). */
  addCommand(command: string, count: number): void {
    const had = this.commands.get(command);
    if (had !== undefined) this.commands.set(command, had + count);
    else if (this.commands.size < this.maxCommands) this.commands.set(command, count);
  }

  /** Births a minute over the last `windowMs` (or since counting began, when that is shorter). */
  perMinute(now: number, windowMs: number): number {
    const births = this.countWithin(now, windowMs);
    const span = Math.max(MIN_SPAN_MS, Math.min(windowMs, now - this.since));
    return Math.round((births * 60_000) / span);
  }

  /** Births in the last `windowMs` (to bucket precision), at most the last minute. */
  countWithin(now: number, windowMs: number): number {
    let births = 0;
    const from = now - windowMs;
    for (let i = this.buckets.length - 1; i >= 0; i--) {
      const [start, count] = this.buckets[i]!;
      if (start + BUCKET_MS <= from) break;
      births += count;
    }
    return births;
  }

  /** The most repeated command lines, most first. */
  topCommands(limit = 5): Array<{ command: string; count: number }> {
    return [...this.commands]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, limit)
      .map(([command, count]) => ({ command, count }));
  }
}
