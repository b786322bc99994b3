import type { SnapshotDelta } from '../../../shared/contract';
import type { GroupView, Snapshot } from '../../../shared/model';
import { sameJson } from '../../../shared/same-json';
import { clockAt } from './clock-slice';
import type { SliceCreator } from './slices';

export interface SnapshotSlice {
  snapshot: Snapshot | null;
  groupsById: Map<string, GroupView>;
  /**
   * Keeps only snapshots newer than the one held: an initial fetch may resolve after a newer push.
   * What it keeps, and each delta applied, also sets the core's clock (clock-slice.ts).
   */
  receiveSnapshot: (snapshot: Snapshot) => void;
  /**
   * Applies what changed since the snapshot held. False when it does not follow the snapshot held (a
   * push was missed, or none arrived yet): the caller fetches the whole snapshot again.
   */
  receiveSnapshotDelta: (delta: SnapshotDelta) => boolean;
}

export function isNewerSnapshot(current: Snapshot | null, incoming: Snapshot): boolean {
  return current === null || incoming.seq > current.seq;
}

/** Unchanged groups keep their objects, so rows memoized on them do not render again. */
function keepUnchanged(held: Map<string, GroupView>, incoming: readonly GroupView[]): GroupView[] {
  return incoming.map((group) => {
    const old = held.get(group.id);
    return old !== undefined && sameJson(old, group) ? old : group;
  });
}

export const createSnapshotSlice: SliceCreator<SnapshotSlice> = (set, get) => ({
  snapshot: null,
  groupsById: new Map(),
  receiveSnapshot: (incoming) => {
    const { snapshot: current, groupsById: held } = get();
    if (!isNewerSnapshot(current, incoming)) return;
    const groups = keepUnchanged(held, incoming.groups);
    const snapshot = { ...incoming, groups };
    set({
      snapshot,
      groupsById: new Map(groups.map((group) => [group.id, group])),
      ...clockAt(incoming.sampledAt),
    });
  },
  receiveSnapshotDelta: (delta) => {
    const { snapshot: current, groupsById: held } = get();
    if (current !== null && delta.seq <= current.seq) return true;
    if (current === null || delta.baseSeq !== current.seq) return false;
    let groups = current.groups;
    let groupsById = held;
    if (delta.groups.length > 0 || delta.removed.length > 0) {
      groupsById = new Map(held);
      for (const id of delta.removed) groupsById.delete(id);
      for (const group of delta.groups) groupsById.set(group.id, group);
      groups = [...groupsById.values()];
    }
    const snapshot: Snapshot = { seq: delta.seq, sampledAt: delta.sampledAt, groups };
    const host = delta.host ?? current.host;
    if (host !== undefined) snapshot.host = host;
    set({ snapshot, groupsById, ...clockAt(delta.sampledAt) });
    return true;
  },
});
