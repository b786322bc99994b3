import type { GroupView, Snapshot } from '../../../shared/model';
import type { SliceCreator } from './slices';

export interface SnapshotSlice {
  snapshot: Snapshot | null;
  groupsById: Map<string, GroupView>;
  /** Keeps only snapshots newer than the one held: an initial fetch may resolve after a newer push. */
  receiveSnapshot: (snapshot: Snapshot) => void;
}

export function isNewerSnapshot(current: Snapshot | null, incoming: Snapshot): boolean {
  return current === null || incoming.seq > current.seq;
}

export const createSnapshotSlice: SliceCreator<SnapshotSlice> = (set, get) => ({
  snapshot: null,
  groupsById: new Map(),
  receiveSnapshot: (snapshot) => {
    if (!isNewerSnapshot(get().snapshot, snapshot)) return;
    set({ snapshot, groupsById: new Map(snapshot.groups.map((group) => [group.id, group])) });
  },
});
