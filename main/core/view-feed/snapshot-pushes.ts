import type { Snapshot } from '../../../shared/model';
import { SnapshotDeltas, type SnapshotPush } from './snapshot-deltas';

/**
 * The one place each snapshot is folded into deltas, for every transport that listens: a listener's
 * first push is the snapshot the deltas chain on, whole; then what changed, or `unchanged`. With no
 * listener left it forgets everything, so the next one starts whole.
 */
export class SnapshotPushes {
  private readonly deltas = new SnapshotDeltas();
  /** Each listener, and whether it still waits for its first (whole) push. */
  private readonly listeners = new Map<(push: SnapshotPush) => void, { fresh: boolean }>();

  /** The snapshot the deltas chain on while anyone listens (SnapshotDeltas.latest), else null. */
  get latest(): Snapshot | null {
    return this.deltas.latest;
  }

  get listened(): boolean {
    return this.listeners.size > 0;
  }

  subscribe(listener: (push: SnapshotPush) => void): () => void {
    this.listeners.set(listener, { fresh: true });
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.deltas.reset();
    };
  }

  /** Folds in the next snapshot, once, and tells every listener what to send. */
  next(snapshot: Snapshot): void {
    if (this.listeners.size === 0) return;
    const push = this.deltas.next(snapshot);
    for (const [listener, state] of this.listeners) {
      if (!state.fresh) listener(push);
      else {
        state.fresh = false;
        listener({ kind: 'whole', snapshot: this.deltas.latest! });
      }
    }
  }
}
