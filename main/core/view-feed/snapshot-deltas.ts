// Snapshots go out whole once per receiver, then as deltas: only the groups that changed. Every
// transport (Electron IPC, the serve WebSocket) pushes what SnapshotPushes computed here once.
import type { SnapshotDelta } from '../../../shared/contract';
import type { GroupView, HostInfo, Snapshot } from '../../../shared/model';
import { sameJson } from '../../../shared/same-json';

/** What to send receivers after a snapshot: all of it (the first), what changed, or nothing. */
export type SnapshotPush =
  { kind: 'whole'; snapshot: Snapshot } | { kind: 'delta'; delta: SnapshotDelta } | { kind: 'unchanged' };

/** Folds each snapshot into the last one sent and says what to send. */
export class SnapshotDeltas {
  private sent: Snapshot | null = null;
  private byId = new Map<string, GroupView>();
  /** Receivers keep the last host they were given, so a snapshot without one changes nothing. */
  private sentHost: HostInfo | undefined;

  /**
   * The snapshot last sent, as of the latest one folded in (an unchanged snapshot moves only its
   * time): what a newcomer, a receiver that fell behind, or `snapshot:get` gets whole, so that the
   * next delta chains on it.
   */
  get latest(): Snapshot | null {
    return this.sent;
  }

  /** Folds in the next snapshot. Nothing changed: the chain stays on the snapshot last sent. */
  next(snapshot: Snapshot): SnapshotPush {
    const base = this.sent;
    if (base === null) {
      this.send(snapshot);
      return { kind: 'whole', snapshot };
    }
    const changed = snapshot.groups.filter((group) => {
      const old = this.byId.get(group.id);
      return old === undefined || !sameJson(old, group);
    });
    const present = new Set(snapshot.groups.map((group) => group.id));
    const removed = [...this.byId.keys()].filter((id) => !present.has(id));
    const newHost =
      snapshot.host !== undefined && !sameJson(snapshot.host, this.sentHost) ? snapshot.host : null;
    if (changed.length === 0 && removed.length === 0 && newHost === null) {
      this.sent = { ...base, sampledAt: snapshot.sampledAt };
      return { kind: 'unchanged' };
    }
    this.send(snapshot);
    const delta: SnapshotDelta = {
      seq: snapshot.seq,
      baseSeq: base.seq,
      sampledAt: snapshot.sampledAt,
      groups: changed,
      removed,
    };
    if (newHost !== null) delta.host = newHost;
    return { kind: 'delta', delta };
  }

  /** Forgets everything: the next snapshot goes out whole. */
  reset(): void {
    this.sent = null;
    this.byId = new Map();
    this.sentHost = undefined;
  }

  private send(snapshot: Snapshot): void {
    this.sent = snapshot;
    this.byId = new Map(snapshot.groups.map((group) => [group.id, group]));
    if (snapshot.host !== undefined) this.sentHost = snapshot.host;
  }
}
