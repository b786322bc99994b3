/**
 * Sustained memory above a threshold, with hysteresis so a group hovering at the line does not flap.
 * The same rule serves groups (flag `memory-hog`) and agents' own processes (a notice only).
 */
export interface MemoryHogState {
  highSince: number | null;
  lowSince: number | null;
  active: boolean;
  /** Highest reading while high or active (bytes); 0 otherwise. */
  peakBytes: number;
}

export interface MemoryHogPolicy {
  groupMegabytes: number;
  windowSeconds: number;
}

export const initialMemoryHogState = (): MemoryHogState => ({
  highSince: null,
  lowSince: null,
  active: false,
  peakBytes: 0,
});

/** Below this fraction of the threshold memory counts as released (freed caches come back in bursts). */
export const MEMORY_CLEAR_FRACTION = 0.75;

/**
 * Enters after the reading stayed at or above the threshold for the whole window; leaves only below
 * three quarters of it, held for a quarter of the window (at least 2 s), like `runaway`.
 */
export function nextMemoryHogState(
  state: MemoryHogState,
  bytes: number,
  at: number,
  policy: MemoryHogPolicy,
): MemoryHogState {
  const threshold = policy.groupMegabytes * 1024 * 1024;
  const windowMs = policy.windowSeconds * 1000;
  if (!state.active) {
    if (bytes < threshold)
      return state.highSince === null && state.lowSince === null ? state : initialMemoryHogState();
    const highSince = state.highSince ?? at;
    return {
      highSince,
      lowSince: null,
      active: at - highSince >= windowMs,
      peakBytes: Math.max(state.peakBytes, bytes),
    };
  }
  const peakBytes = Math.max(state.peakBytes, bytes);
  if (bytes >= threshold * MEMORY_CLEAR_FRACTION) return { ...state, lowSince: null, peakBytes };
  const lowSince = state.lowSince ?? at;
  const clearAfterMs = Math.max(2000, windowMs / 4);
  return at - lowSince >= clearAfterMs ? initialMemoryHogState() : { ...state, lowSince, peakBytes };
}
