import type { GroupView, Snapshot } from '../../../shared/model';
import { GroupViewCache } from '../monitor/views/group-view-cache';
import type { RunningService } from '../create-service';

/**
 * The tray's snapshots while no window shows every group: agents' groups, without host facts. The tray
 * shows flagged groups only (their CPU, age and flags) and the notifier announces flags, so a refresh
 * is sent only when a flagged group's view changed, or a group was flagged, lost its flags or ended. An
 * agent's own CPU moves at every poll: that alone wakes neither the tray nor the thread it runs on.
 * Groups whose inputs did not change are not built again (their views carry no decoration, so nothing
 * but those inputs can change them). The tray keeps its ages current itself (tray-controller.ts).
 */
export class TrayFeed {
  private readonly cache = new GroupViewCache({ decoratedMaxAgeMs: Infinity });
  /** The groups flagged in the last snapshot taken: one that lost its flags or ended must leave the tray. */
  private shownFlagged = new Set<string>();

  constructor(private readonly running: Pick<RunningService, 'agentsSnapshot'>) {}

  /** The snapshot to send now: always after a run that delivered events, or when the window asks. */
  now(): Snapshot {
    return this.take().snapshot;
  }

  /** The snapshot to send on the refresh pace, or null when the tray would show nothing new. */
  refresh(): Snapshot | null {
    const { snapshot, changed } = this.take();
    return changed ? snapshot : null;
  }

  private take(): { snapshot: Snapshot; changed: boolean } {
    let built: readonly GroupView[] = [];
    const snapshot = this.running.agentsSnapshot({ cache: this.cache, built: (groups) => (built = groups) });
    // A keep (or its end) changes what the tray says of a group without the group being built again.
    const flagged = new Set(
      snapshot.groups
        .filter((g) => g.flags.length > 0)
        .map((g) => (g.kept ? `${g.id}@${g.kept.until}` : g.id)),
    );
    const changed =
      built.some((g) => g.flags.length > 0) ||
      flagged.size !== this.shownFlagged.size ||
      [...flagged].some((id) => !this.shownFlagged.has(id));
    this.shownFlagged = flagged;
    return { snapshot, changed };
  }
}
