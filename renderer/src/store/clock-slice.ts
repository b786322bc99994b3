import type { SliceCreator } from './slices';

/**
 * The core's clock, not this machine's (serve may be viewed from another machine whose clock is
 * skewed). Each snapshot received sets it; between snapshots a ticker moves it on with the local clock.
 */
export interface ClockSlice {
  /** The core's time as last set or ticked; 0 until the first snapshot. */
  now: number;
  /** The core's clock minus this one, measured at the latest snapshot; null until the first. */
  clockOffsetMs: number | null;
  /** Moves `now` to the core's time as this clock and the offset tell it (nothing before a snapshot). */
  tick: () => void;
}

/** The clock as of a snapshot or delta sampled at `sampledAt`, received now. */
export function clockAt(sampledAt: number): Pick<ClockSlice, 'now' | 'clockOffsetMs'> {
  return { now: sampledAt, clockOffsetMs: sampledAt - Date.now() };
}

export const createClockSlice: SliceCreator<ClockSlice> = (set, get) => ({
  now: 0,
  clockOffsetMs: null,
  tick: () => {
    const offset = get().clockOffsetMs;
    if (offset !== null) set({ now: Date.now() + offset });
  },
});
