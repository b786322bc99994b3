import type { CorralApi } from '../../../shared/contract';
import { isPolicyEvent } from '../policies/policy-journal';
import type { CorralStore } from '../store/create-store';
import { startClockTicker } from './clock-ticker';

/**
 * Feeds the store from the core: pushes first, then the initial fetch (the store drops it if older).
 * Snapshots arrive whole, then as deltas; a delta that does not follow what the store holds (a missed
 * push, a page reloaded under a running window) makes it fetch the whole snapshot again, once at a time.
 * The core pushes only when something changed: a ticker moves the store's clock on in between.
 */
export function connectStore(api: CorralApi, store: CorralStore): () => void {
  const state = () => store.getState();
  let fetching = false;
  const fetchWhole = () => {
    if (fetching) return;
    fetching = true;
    api.request('snapshot:get', undefined).then(
      (snapshot) => {
        fetching = false;
        state().receiveSnapshot(snapshot);
      },
      () => {
        // Pushes keep coming; a failed fetch only delays the picture until the next gap or whole push.
        fetching = false;
      },
    );
  };
  const unsubscribers = [
    api.on('snapshot', (snapshot) => state().receiveSnapshot(snapshot)),
    api.on('snapshot:delta', (delta) => {
      if (!state().receiveSnapshotDelta(delta)) fetchWhole();
    }),
    api.on('teardown:progress', (partial) => state().teardownProgress(partial)),
    api.on('event', (event) => {
      if (isPolicyEvent(event)) state().receivePolicyEvent(event);
    }),
    startClockTicker(store),
  ];
  fetchWhole();
  return () => unsubscribers.forEach((unsubscribe) => unsubscribe());
}
