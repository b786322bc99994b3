import type { CorralApi } from '../../../shared/contract';
import { isPolicyEvent } from '../policies/policy-journal';
import type { CorralStore } from '../store/create-store';

/** Feeds the store from the core: pushes first, then the initial fetch (the store drops it if older). */
export function connectStore(api: CorralApi, store: CorralStore): () => void {
  const state = () => store.getState();
  const unsubscribers = [
    api.on('snapshot', (snapshot) => state().receiveSnapshot(snapshot)),
    api.on('teardown:progress', (partial) => state().teardownProgress(partial)),
    api.on('event', (event) => {
      if (isPolicyEvent(event)) state().receivePolicyEvent(event);
    }),
  ];
  api.request('snapshot:get', undefined).then(
    (snapshot) => state().receiveSnapshot(snapshot),
    () => {
      // Pushes keep coming; a failed first fetch only delays the first picture.
    },
  );
  return () => unsubscribers.forEach((unsubscribe) => unsubscribe());
}
