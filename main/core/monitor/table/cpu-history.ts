const FINE_SLOTS = 3600;
const COARSE_SLOTS = 1440;
const COARSE_STEP_MS = 60_000;

/**
 * One process's CPU trace in columnar typed arrays: the last hour at sample resolution, and a day at
 * one point a minute (averaged). Seconds since a base time in Uint32, percent × 10 in Uint16: 6 bytes a
 * point, so an hour of 1 Hz history for 1,000 processes stays around 30 MB.
 */
export class CpuHistory {
  // Allocated whole at once: growing by doubling left garbage buffers that kept resident memory high.
  private fineT = new Uint32Array(FINE_SLOTS);
  private fineV = new Uint16Array(FINE_SLOTS);
  private fineStart = 0;
  private fineCount = 0;
  private coarseT: Uint32Array | null = null;
  private coarseV: Uint16Array | null = null;
  private coarseStart = 0;
  private coarseCount = 0;
  private bucketMinute = -1;
  private bucketSum = 0;
  private bucketN = 0;

  constructor(private readonly baseMs: number) {}

  add(at: number, percent: number): void {
    const t = Math.max(0, Math.round((at - this.baseMs) / 1000));
    const v = Math.min(65535, Math.round(percent * 10));
    this.pushFine(t, v);
    const minute = Math.floor((at - this.baseMs) / COARSE_STEP_MS);
    if (minute !== this.bucketMinute && this.bucketN > 0) this.flushBucket();
    this.bucketMinute = minute;
    this.bucketSum += v;
    this.bucketN++;
  }

  /** [time ms, percent] pairs since `sinceMs`, oldest first; older than an hour comes from minute averages. */
  points(sinceMs = 0): Array<[number, number]> {
    const out: Array<[number, number]> = [];
    const fineFrom = this.fineCount > 0 ? this.fineT[this.fineStart]! : Infinity;
    if (this.coarseT && this.coarseV) {
      for (let i = 0; i < this.coarseCount; i++) {
        const k = (this.coarseStart + i) % COARSE_SLOTS;
        const t = this.coarseT[k]!;
        if (t >= fineFrom) break;
        const at = this.baseMs + t * 1000;
        if (at >= sinceMs) out.push([at, this.coarseV[k]! / 10]);
      }
    }
    for (let i = 0; i < this.fineCount; i++) {
      const k = (this.fineStart + i) % this.fineT.length;
      const at = this.baseMs + this.fineT[k]! * 1000;
      if (at >= sinceMs) out.push([at, this.fineV[k]! / 10]);
    }
    return out;
  }

  get byteLength(): number {
    return (
      this.fineT.byteLength +
      this.fineV.byteLength +
      (this.coarseT?.byteLength ?? 0) +
      (this.coarseV?.byteLength ?? 0)
    );
  }

  private pushFine(t: number, v: number): void {
    const size = this.fineT.length;
    const k = (this.fineStart + this.fineCount) % size;
    this.fineT[k] = t;
    this.fineV[k] = v;
    if (this.fineCount < size) this.fineCount++;
    else this.fineStart = (this.fineStart + 1) % size;
  }

  private flushBucket(): void {
    this.coarseT ??= new Uint32Array(COARSE_SLOTS);
    this.coarseV ??= new Uint16Array(COARSE_SLOTS);
    const k = (this.coarseStart + this.coarseCount) % COARSE_SLOTS;
    this.coarseT[k] = Math.round((this.bucketMinute * COARSE_STEP_MS) / 1000);
    this.coarseV[k] = Math.round(this.bucketSum / this.bucketN);
    if (this.coarseCount < COARSE_SLOTS) this.coarseCount++;
    else this.coarseStart = (this.coarseStart + 1) % COARSE_SLOTS;
    this.bucketSum = 0;
    this.bucketN = 0;
  }
}
