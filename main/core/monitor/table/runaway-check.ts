import { availableParallelism } from 'node:os';
import { CpuMeter } from '../../analysis/cpu-meter';
import {
  DEMAND_MIN_GAP_MS,
  nextRunawayState,
  provenRunningMs,
  runawayLoad,
  wantedTimeMs,
  type RunawayPolicy,
} from '../../analysis/runaway';
import type { MonitorState } from './monitor-state';
import type { TrackedProcess } from './tracked';

const CORES = availableParallelism();

/**
 * The runaway rule (analysis/runaway.ts) applied to each poll's readings of agents' processes: their
 * demand (CPU time plus run-queue wait) read over at least DEMAND_MIN_GAP_MS, their streaks and spans,
 * and the `runaway` / `runaway-cleared` events.
 */
export class RunawayCheck {
  private readonly demandMeter = new CpuMeter(wantedTimeMs);

  constructor(
    private readonly state: MonitorState,
    private readonly policy: () => RunawayPolicy,
  ) {}

  /**
   * A poll's reading of `p`: `percent`, the share of a core it received since it was last read at
   * `readAt` (the load itself where the platform reports no run-queue wait).
   */
  read(p: TrackedProcess, percent: number, now: number, readAt: number | undefined): void {
    const wanted = wantedTimeMs(p.record);
    // The demand spans from its own last reading, the share from the process's last read.
    const from = wanted === null ? readAt : this.demandMeter.readAt(p.identity);
    const demanded =
      wanted === null ? null : this.demandMeter.reading(p.identity, wanted, now, DEMAND_MIN_GAP_MS);
    const demand = runawayLoad(percent, demanded, wanted !== null);
    if (demand === null) return;
    const before = p.runaway.active;
    const running = from === undefined ? 0 : provenRunningMs(demand, now - from, p.record.threads, CORES);
    p.runaway = nextRunawayState(p.runaway, demand, now, this.policy(), running);
    const detail = { cpuPercent: tenths(percent), demandPercent: tenths(demand) };
    if (!before && p.runaway.active) {
      p.runawaySpans.push([p.runaway.hotSince ?? now, null]);
      this.state.emit('runaway', p, now, detail);
    } else if (before && !p.runaway.active) {
      closeRunawaySpan(p, now);
      this.state.emit('runaway-cleared', p, now, detail);
    }
  }

  forget(identity: string): void {
    this.demandMeter.forget(identity);
  }

  /** After a sleep or a stall: the next reading of each process starts afresh. */
  rebaseline(): void {
    this.demandMeter.rebaseline();
  }
}

export function closeRunawaySpan(p: TrackedProcess, now: number): void {
  const span = p.runawaySpans[p.runawaySpans.length - 1];
  if (span && span[1] === null) span[1] = now;
}

const tenths = (n: number): number => Math.round(n * 10) / 10;
