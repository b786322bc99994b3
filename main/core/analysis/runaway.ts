/** Per-process runaway tracking: sustained CPU above a threshold, with hysteresis so it does not flap. */
export interface RunawayState {
  hotSince: number | null;
  coolSince: number | null;
  active: boolean;
}

export interface RunawayPolicy {
  cpuPercent: number;
  windowSeconds: number;
}

export const initialRunawayState = (): RunawayState => ({ hotSince: null, coolSince: null, active: false });

/** Leaves the runaway state only below half the threshold, held for a quarter of the window (at least 2 s). */
export function nextRunawayState(
  state: RunawayState,
  cpuPercent: number | null,
  at: number,
  policy: RunawayPolicy,
  /** How long before `at` a first hot reading shows the process already running (provenRunningMs). */
  runningForMs = 0,
): RunawayState {
  if (cpuPercent === null) return state;
  const windowMs = policy.windowSeconds * 1000;
  if (!state.active) {
    if (cpuPercent < policy.cpuPercent)
      return state.hotSince === null && state.coolSince === null
        ? state
        : { hotSince: null, coolSince: null, active: false };
    const hotSince = state.hotSince ?? at - runningForMs;
    return { hotSince, coolSince: null, active: at - hotSince >= windowMs };
  }
  if (cpuPercent >= policy.cpuPercent / 2) return { ...state, coolSince: null };
  const coolSince = state.coolSince ?? at;
  const clearAfterMs = Math.max(2000, windowMs / 4);
  return at - coolSince >= clearAfterMs
    ? { hotSince: null, coolSince: null, active: false }
    : { ...state, coolSince };
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
 * One-shot evidence (no history): hot now, and hot on average over a lifetime at least as long as the
 * window, which the seed's ten-day busy loop shows at a glance.
 */
export function looksRunawayNow(
  cpuPercent: number | null,
  cpuTimeMs: number | null,
  ageMs: number,
  policy: RunawayPolicy,
): boolean {
  if (cpuTimeMs === null || cpuPercent === null || cpuPercent < policy.cpuPercent) return false;
  if (ageMs < policy.windowSeconds * 1000 || ageMs <= 0) return false;
  return (cpuTimeMs / ageMs) * 100 >= policy.cpuPercent;
}
