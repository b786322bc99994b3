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
): RunawayState {
  if (cpuPercent === null) return state;
  const windowMs = policy.windowSeconds * 1000;
  if (!state.active) {
    if (cpuPercent < policy.cpuPercent)
      return state.hotSince === null && state.coolSince === null
        ? state
        : { hotSince: null, coolSince: null, active: false };
    const hotSince = state.hotSince ?? at;
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
