import { identityKey, type ProcessRecord } from '../sampling/process-record';

/**
 * CPU percent from CPU-time deltas between two readings of the same process identity (pid + start),
 * never a lifetime average. A reused pid is a new identity and starts without a reading; an exec keeps
 * the identity and its CPU time, so the delta stays correct across it.
 */
export class CpuMeter {
  private last = new Map<string, { cpuTimeMs: number; at: number }>();

  /** Records readings taken at `at` and returns each identity's percent of one core (null if first seen). */
  update(
    records: readonly ProcessRecord[],
    at: number,
    { evictUnseen = true } = {},
  ): Map<string, number | null> {
    const out = new Map<string, number | null>();
    const next = evictUnseen ? new Map<string, { cpuTimeMs: number; at: number }>() : this.last;
    for (const r of records) {
      const key = identityKey(r.pid, r.startKey);
      const prev = this.last.get(key);
      let percent: number | null = null;
      if (prev && at > prev.at) {
        percent = Math.max(0, ((r.cpuTimeMs - prev.cpuTimeMs) / (at - prev.at)) * 100);
      }
      out.set(key, percent);
      next.set(key, { cpuTimeMs: r.cpuTimeMs, at });
    }
    this.last = next;
    return out;
  }

  /**
   * One reading of one identity, as update() would take it, without building a result map: the
   * monitor takes one for each agent's process every second.
   */
  reading(identity: string, cpuTimeMs: number, at: number): number | null {
    const prev = this.last.get(identity);
    if (!prev) {
      this.last.set(identity, { cpuTimeMs, at });
      return null;
    }
    const percent = at > prev.at ? Math.max(0, ((cpuTimeMs - prev.cpuTimeMs) / (at - prev.at)) * 100) : null;
    prev.cpuTimeMs = cpuTimeMs;
    prev.at = at;
    return percent;
  }

  forget(identity: string): void {
    this.last.delete(identity);
  }
}
