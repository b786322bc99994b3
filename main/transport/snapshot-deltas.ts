// Snapshots go out whole once per receiver, then as deltas: only the groups that changed. Both
// transports (Electron IPC and the serve WebSocket) push through this, so they say the same thing.
import type { SnapshotDelta } from '../../shared/contract';
import type { GroupView, Snapshot } from '../../shared/model';
import { sameJson } from '../../shared/same-json';

/** Folds each pushed snapshot into the last one and says what changed. */
export class SnapshotDeltas {
  private last: Snapshot | null = null;
  private byId = new Map<string, GroupView>();

  /** The latest snapshot folded in: what a newcomer (or a receiver that fell behind) gets whole. */
  get latest(): Snapshot | null {
    return this.last;
  }

  /** Folds in the next snapshot; returns what changed since the previous one (null for the first). */
  next(snapshot: Snapshot): SnapshotDelta | null {
    const previous = this.last;
    const before = this.byId;
    const byId = new Map<string, GroupView>();
    const changed: GroupView[] = [];
    for (const group of snapshot.groups) {
      byId.set(group.id, group);
      const old = before.get(group.id);
      if (old === undefined || !sameJson(old, group)) changed.push(group);
    }
    this.last = snapshot;
    this.byId = byId;
    if (previous === null) return null;
    const removed: string[] = [];
    for (const id of before.keys()) if (!byId.has(id)) removed.push(id);
    const delta: SnapshotDelta = {
      seq: snapshot.seq,
      baseSeq: previous.seq,
      sampledAt: snapshot.sampledAt,
      groups: changed,
      removed,
    };
    if (snapshot.host !== undefined) delta.host = snapshot.host;
    return delta;
  }

  /** Forgets everything: the next snapshot goes out whole. */
  reset(): void {
    this.last = null;
    this.byId = new Map();
  }
}
