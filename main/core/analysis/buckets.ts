/** Buckets births are counted in: fine enough for a 1 s window, few enough for a storm's minute. */
const BUCKET_MS = 250;
/** The longest span a rate is asked for; older buckets are dropped. */
export const KEEP_MS = 60_000;

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
