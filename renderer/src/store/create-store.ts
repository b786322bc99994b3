import { createStore, type StoreApi } from 'zustand/vanilla';
import { subscribeWithSelector } from 'zustand/middleware';
import type { Mutate } from 'zustand/vanilla';
import type { CorralState } from './slices';
import { createSnapshotSlice } from './snapshot-slice';
import { createClockSlice } from './clock-slice';
import { createUiSlice } from './ui-slice';
import { createTimelineSlice } from './timeline-slice';
import { createTeardownSlice } from './teardown-slice';
import { createPolicySlice } from './policy-slice';

export type CorralStore = Mutate<StoreApi<CorralState>, [['zustand/subscribeWithSelector', never]]>;

/** The slices combined once; middleware applies to the combined store only. */
export function createCorralStore(): CorralStore {
  return createStore<CorralState>()(
    subscribeWithSelector((...a) => ({
      ...createSnapshotSlice(...a),
      ...createClockSlice(...a),
      ...createUiSlice(...a),
      ...createTimelineSlice(...a),
      ...createTeardownSlice(...a),
      ...createPolicySlice(...a),
    })),
  );
}
