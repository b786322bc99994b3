import type { CorralStore } from '../store/create-store';

export const TICK_MS = 1000;

/**
 * Moves the store's `now` on once a second while no snapshot arrives (the core pushes only when
 * something changed), so ages and an open timeline keep moving. Each snapshot received sets `now`
 * itself and restarts the count. Returns the stop function.
 */
export function startClockTicker(store: CorralStore): () => void {
  let timer: ReturnType<typeof setInterval> | undefined;
  const restart = () => {
    clearInterval(timer);
    timer = setInterval(() => store.getState().tick(), TICK_MS);
  };
  const unsubscribe = store.subscribe((s) => s.snapshot, restart);
  restart();
  return () => {
    unsubscribe();
    clearInterval(timer);
  };
}
