import type { StateCreator } from 'zustand/vanilla';
import type { SnapshotSlice } from './snapshot-slice';
import type { UiSlice } from './ui-slice';
import type { TimelineSlice } from './timeline-slice';
import type { TeardownSlice } from './teardown-slice';
import type { PolicySlice } from './policy-slice';
import type { ClockSlice } from './clock-slice';

export type CorralState = SnapshotSlice & ClockSlice & UiSlice & TimelineSlice & TeardownSlice & PolicySlice;

/** A slice creator that sees the whole combined state (zustand's slices pattern). */
export type SliceCreator<Slice> = StateCreator<
  CorralState,
  [['zustand/subscribeWithSelector', never]],
  [],
  Slice
>;
