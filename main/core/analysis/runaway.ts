import type { ProcessRecord } from '../model/process-record';

/**
 * Per-process runaway tracking. A runaway is a process that wants a CPU all the time: what it DEMANDS
 * (the time it ran plus the time it waited, runnable, on a run queue: `runawayLoad`), not the share the
 * scheduler gave it. A busy loop beside busy neighbours gets half a core or less, yet it is runnable the
 * whole time; a build waiting on its disk or a test runner that sleeps is not runnable while it waits.
 * Over a window, with hysteresis so it does not flap.
 */
export interface RunawayState {
  /** When the current hot streak began (dated back to when it must have started), or null. */
  hotSince: number | null;
  coolSince: number | null;
  active: boolean;
  /** When the streak's last reading was taken. */
  lastAt: number | null;
  /** Demand summed over the streak (percent of a core × ms / 100): its average decides, not one reading. */
  demandMs: number;
}

export interface RunawayPolicy {
  cpuPercent: number;
  windowSeconds: number;
}

export const initialRunawayState = (): RunawayState => ({
  hotSince: null,
  coolSince: null,
  active: false,
  lastAt: null,
  demandMs: 0,
});

/**
 * How long a process has wanted a CPU, ms: the CPU time it received plus the time it waited for one on a
 * run queue; null where the platform reports no wait (see ProcessRecord.runQueueWaitMs).
 */
export function wantedTimeMs(r: ProcessRecord): number | null {
  return r.cpuTimeMs === null || r.runQueueWaitMs === undefined ? null : r.cpuTimeMs + r.runQueueWaitMs;
}

/**
 * A run-queue wait is counted when the process next runs: over a moment in which it only waited, nothing
 * moves. Demand is read over at least this long, where such a wait is a small part of the reading.
 */
export const DEMAND_MIN_GAP_MS = 750;

/**
 * The load the runaway rule compares with its threshold, percent of one core: the demand (wantedTimeMs per
 * second of wall time) where the platform reports the wait (`waitReported`), else the share received.
 * Unknown (null) while the demand has no reading, so the share never stands in for it.
 */
export function runawayLoad(
  sharePercent: number | null,
  demandPercent: number | null,
  waitReported: boolean,
): number | null {
  return waitReported ? demandPercent : sharePercent;
}

/**
 * Enters the runaway state once a streak has lasted the whole window with its average demand at or above
 * the threshold. One reading under the threshold does not end a streak (under contention a run-queue wait
 * is counted when the process next runs, so readings swing around the truth); the streak ends when its
 * average falls under the threshold, or at one reading under half of it (the process rested). Leaves the
 * runaway state only below half the threshold, held for a quarter of the window (at least 2 s).
 */
export function nextRunawayState(
  state: RunawayState,
  demandPercent: number | null,
  at: number,
  policy: RunawayPolicy,
  /**
   * How long before `at` a first hot reading shows the process already running (provenRunningMs): the
   * streak starts that much earlier, and its first reading weighs that long in the average.
   */
  runningForMs = 0,
): RunawayState {
  if (demandPercent === null) return state;
  const windowMs = policy.windowSeconds * 1000;
  if (!state.active) return nextStreak(state, demandPercent, at, windowMs, policy.cpuPercent, runningForMs);
  if (demandPercent >= policy.cpuPercent / 2) return { ...state, coolSince: null, lastAt: at };
  const coolSince = state.coolSince ?? at;
  const clearAfterMs = Math.max(2000, windowMs / 4);
  return at - coolSince >= clearAfterMs ? initialRunawayState() : { ...state, coolSince, lastAt: at };
}

function nextStreak(
  state: RunawayState,
  percent: number,
  at: number,
  windowMs: number,
  threshold: number,
  runningForMs: number,
): RunawayState {
  if (state.hotSince !== null && state.lastAt !== null && percent >= threshold / 2) {
    const demandMs = state.demandMs + (percent / 100) * Math.max(0, at - state.lastAt);
    const spanMs = at - state.hotSince;
    if (spanMs <= 0 || (demandMs / spanMs) * 100 >= threshold)
      return { hotSince: state.hotSince, coolSince: null, active: spanMs >= windowMs, lastAt: at, demandMs };
  }
  if (percent < threshold) return state.hotSince === null ? state : initialRunawayState();
  const hotSince = at - runningForMs;
  return {
    hotSince,
    coolSince: null,
    active: runningForMs >= windowMs,
    lastAt: at,
    demandMs: (percent / 100) * runningForMs,
  };
}

/**
 * How long a process must have been running to be read `cpuPercent` busy (of one core) over the `gapMs`
 * since its last reading: its CPU time spread over as many cores as it can use at once (its threads, at
 * most the machine's cores; all of them when its threads are unknown). Never longer than the gap. A
 * reading averaged over a long gap (an idle process read seldom) then starts its hot streak when the
 * process must have started, not when it was read, so reading idle processes seldom delays no runaway.
 */
export function provenRunningMs(
  cpuPercent: number,
  gapMs: number,
  threads: number | undefined,
  cores: number,
): number {
  if (!(cpuPercent > 0) || !(gapMs > 0)) return 0;
  const parallel = Math.max(1, Math.min(threads ?? cores, cores));
  return Math.min(gapMs, ((cpuPercent / 100) * gapMs) / parallel);
}

/**
 * One-shot evidence (no history): the demand now (`demandPercent`, from two readings a moment apart: see
 * runawayLoad) at or above the threshold, and the demand over the process's whole life (its CPU time plus
 * its run-queue wait, `waitMs`, where known) too, over a life at least as long as the window. The seed's
 * ten-day busy loop shows both at a glance, whatever share of a core the machine gives it now.
 */
export function looksRunawayNow(
  demandPercent: number | null,
  cpuTimeMs: number | null,
  ageMs: number,
  policy: RunawayPolicy,
  waitMs = 0,
): boolean {
  if (cpuTimeMs === null || demandPercent === null || demandPercent < policy.cpuPercent) return false;
  if (ageMs < policy.windowSeconds * 1000 || ageMs <= 0) return false;
  return ((cpuTimeMs + waitMs) / ageMs) * 100 >= policy.cpuPercent;
}
