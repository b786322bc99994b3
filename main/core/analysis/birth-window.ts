/** Buckets births are counted in: fine enough for a 1 s window, few enough for a storm's minute. */
const BUCKET_MS = 250;
/** The longest span a rate is asked for; older buckets are dropped. */
const KEEP_MS = 60_000;
/** A rate over less time than this is too noisy (a build's first burst): it is divided by this much. */
const MIN_SPAN_MS = 2_000;

/** A loop's shell that starts `sleep` once for at most this many of its command's starts is pacing it. */
const PACED_SLEEPS = 3;

/** `sleep`, however it is named (`/bin/sleep 1`, `sleep 0.1`). */
export const isSleep = (command: string): boolean => /^(\S*\/)?sleep(\s|$)/.test(command);

/**
 * The buckets under `key`; a new key only while fewer than `cap` are kept, after those with no birth in
 * the last minute are dropped. Undefined when full.
 */
function bucketsOf<K>(map: Map<K, Buckets>, key: K, at: number, cap: number): Buckets | undefined {
  let buckets = map.get(key);
  if (buckets) return buckets;
  if (map.size >= cap) for (const [k, b] of map) if (b.within(at, KEEP_MS) === 0) map.delete(k);
  if (map.size >= cap) return undefined;
  buckets = new Buckets();
  map.set(key, buckets);
  return buckets;
}

/** Counts over time, in buckets, for the last minute. */
export class Buckets {
  private readonly buckets: Array<[number, number]> = [];
  total = 0;

  add(at: number, count: number): void {
    this.total += count;
    const start = at - (at % BUCKET_MS);
    const last = this.buckets[this.buckets.length - 1];
    // (Out of order, never expected on one clock: kept in the newest bucket.)
    if (last && last[0] >= start) last[1] += count;
    else this.buckets.push([start, count]);
    while (this.buckets.length > 0 && this.buckets[0]![0] < at - KEEP_MS) this.buckets.shift();
  }

  within(now: number, windowMs: number): number {
    let count = 0;
    const from = now - windowMs;
    for (let i = this.buckets.length - 1; i >= 0; i--) {
      const [start, n] = this.buckets[i]!;
      if (start + BUCKET_MS <= from) break;
      count += n;
    }
    return count;
  }
}

/**
 * Births of one group over the recent past and the rate they make; and the command lines that were
 * born (once read after their exec; see spawn-births), each with its own rate, up to a cap of
 * distinct command lines.
 */
export class BirthWindow {
  private readonly births = new Buckets();
  private readonly commands = new Map<string, Buckets>();
  /** Births by the shell that started them and their command line: `${shell pid}\0${command}`. */
  private readonly loops = new Map<string, Buckets>();
  /** `sleep`s each shell started: a loop that sleeps between its tries is waiting, not storming. */
  private readonly sleeps = new Map<number, Buckets>();
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

  /** `count` of the births at `at` ran `command`, started by the shell `shell` (a loop's body). */
  addLoop(at: number, shell: number, command: string, count: number): void {
    if (isSleep(command)) {
      bucketsOf(this.sleeps, shell, at, this.maxCommands)?.add(at, count);
      return;
    }
    bucketsOf(this.loops, `${shell}\0${command}`, at, this.maxCommands)?.add(at, count);
  }

  /**
   * The busiest shell loop: one shell starting one command line, its starts a minute over the last
   * `windowMs` (as perMinute), leaving out a loop whose shell also starts `sleep` at least once for
   * every PACED_SLEEPS of its command's starts (`until curl …; do sleep 0.1; done`).
   */
  topLoop(now: number, windowMs: number): { perMinute: number; command: string | null } {
    let most = 0;
    let command: string | null = null;
    for (const [key, buckets] of this.loops) {
      const n = buckets.within(now, windowMs);
      if (n <= most) continue;
      const cut = key.indexOf('\0');
      const slept = this.sleeps.get(Number(key.slice(0, cut)))?.within(now, windowMs) ?? 0;
      if (slept * PACED_SLEEPS >= n) continue;
      most = n;
      command = key.slice(cut + 1);
    }
    return { perMinute: this.scale(most, now, windowMs), command };
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

  private scale(count: number, now: number, windowMs: number): number {
    const span = Math.max(MIN_SPAN_MS, Math.min(windowMs, now - this.since));
    return Math.round((count * 60_000) / span);
  }
}
