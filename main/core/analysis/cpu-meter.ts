import { identityKey } from '../model/identity';
import type { ProcessRecord } from '../model/process-record';

/**
 * CPU percent from CPU-time deltas between two readings of the same process identity (pid + start),
 * never a lifetime average. A reused pid is a new identity and starts without a reading; an exec keeps
 * the identity and its CPU time, so the delta stays correct across it.
 */
export class CpuMeter {
  private last = new Map<string, { cpuTimeMs: number; at: number }>();

  /**
   * `timeOf`: the cumulative time measured; CPU time by default, or another clock of the process's own
   * (its CPU time plus its run-queue wait, `wantedTimeMs`: the runaway rule's demand, see runawayLoad).
   */
  constructor(private readonly timeOf: (r: ProcessRecord) => number | null = (r) => r.cpuTimeMs) {}

  /**
   * Records readings taken at `at` of a whole table and returns each identity's percent of one core
   * (null if first seen); identities not in this table are forgotten.
   */
  update(records: readonly ProcessRecord[], at: number): Map<string, number | null> {
    const out = new Map<string, number | null>();
    const next = new Map<string, { cpuTimeMs: number; at: number }>();
    for (const r of records) {
      const key = identityKey(r.pid, r.startKey);
      // CPU time the kernel would not tell (another user's process on macOS) has no percent.
      const time = this.timeOf(r);
      if (time === null) {
        out.set(key, null);
        continue;
      }
      out.set(key, percentSince(this.last.get(key), time, at));
      next.set(key, { cpuTimeMs: time, at });
    }
    this.last = next;
    return out;
  }

  /**
   * One reading of one identity, kept in place, without building a result map: the monitor takes one
   * for each agent's process every second. Within `minGapMs` of the last reading it takes none (null, the
   * last one kept), so that the next spans at least that long.
   */
  reading(identity: string, cpuTimeMs: number | null, at: number, minGapMs = 0): number | null {
    if (cpuTimeMs === null) return null;
    const prev = this.last.get(identity);
    if (prev && at - prev.at < minGapMs) return null;
    const percent = percentSince(prev, cpuTimeMs, at);
    if (prev) {
      prev.cpuTimeMs = cpuTimeMs;
      prev.at = at;
    } else this.last.set(identity, { cpuTimeMs, at });
    return percent;
  }

  /** When the last reading of an identity was taken, if one is kept. */
  readAt(identity: string): number | undefined {
    return this.last.get(identity)?.at;
  }

  forget(identity: string): void {
    this.last.delete(identity);
  }

  /**
   * Drops every reading, so the next one of each identity starts afresh (null): after the machine slept
   * or the sampler was starved, a delta over the gap is no measure of the last interval.
   */
  rebaseline(): void {
    this.last.clear();
  }
}

function percentSince(
  prev: { cpuTimeMs: number; at: number } | undefined,
  cpuTimeMs: number,
  at: number,
): number | null {
  if (!prev || at <= prev.at) return null;
  return Math.max(0, ((cpuTimeMs - prev.cpuTimeMs) / (at - prev.at)) * 100);
}
