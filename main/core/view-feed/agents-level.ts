import type { GroupView, Snapshot } from '../../../shared/model';
import type { Monitor } from '../monitor/monitor';
import { GroupViewCache } from '../monitor/views/group-view-cache';
import { onViewTick } from './view-ticks';

/** Agents' snapshots, built through a cache of their own; `built` gets the groups built afresh. */
type AgentsSnapshot = (views: { cache: GroupViewCache; built: (groups: GroupView[]) => void }) => Snapshot;

/** How many polls without events pass between the agents level's checks for something new to show. */
const REFRESH_POLLS = 5;

/**
 * The feed's agents-only level: the tray's snapshots while no window shows every group (agents' groups,
 * without host facts). The tray shows flagged groups only (their CPU, age and flags) and the notifier
 * announces flags, so a refresh is sent only when a flagged group's view changed, or a group was
 * flagged, lost its flags or ended. An agent's own CPU moves at every poll: that alone wakes neither the
 * tray nor the thread it runs on. Groups whose inputs did not change are not built again (their views
 * carry no decoration, so nothing but those inputs can change them). The tray keeps its ages current
 * itself (tray-controller.ts).
 */
export class AgentsLevel {
  private readonly cache = new GroupViewCache({ decoratedMaxAgeMs: Infinity });
  /** The groups flagged in the last snapshot taken: one that lost its flags or ended must leave the tray. */
  private shownFlagged = new Set<string>();

  constructor(
    private readonly monitor: Monitor,
    private readonly snapshotOf: AgentsSnapshot,
  ) {}

  /** The snapshot to send now: always after a run that delivered events, or when the window asks. */
  now(): Snapshot {
    return this.take().snapshot;
  }

  /** The snapshot to send on the refresh pace, or null when the tray would show nothing new. */
  refresh(): Snapshot | null {
    const { snapshot, changed } = this.take();
    return changed ? snapshot : null;
  }

  /**
   * Snapshots on the one view tick (view-ticks.ts): at once after a run that delivered events (a flag
   * came or went), and otherwise every few polls, when the tray would show something new.
   */
  subscribe(listener: (snapshot: Snapshot) => void): () => void {
    let pollsSinceSent = 0;
    const send = (snapshot: Snapshot | null): void => {
      pollsSinceSent = 0;
      if (snapshot) listener(snapshot);
    };
    return onViewTick(this.monitor, (tick) => {
      if (tick === 'events') send(this.now());
      else if (++pollsSinceSent >= REFRESH_POLLS) send(this.refresh());
    });
  }

  private take(): { snapshot: Snapshot; changed: boolean } {
    let built: readonly GroupView[] = [];
    const snapshot = this.snapshotOf({ cache: this.cache, built: (groups) => (built = groups) });
    // A keep (or its end), or a session found after the group's events (recalled, not built), changes
    // what the tray and the notifier say of a group without the group being built again.
    const flagged = new Set(
      snapshot.groups
        .filter((g) => g.flags.length > 0)
        .map((g) => `${g.id}@${g.kept?.until ?? ''}@${g.session?.id ?? ''}`),
    );
    const changed =
      built.some((g) => g.flags.length > 0) ||
      flagged.size !== this.shownFlagged.size ||
      [...flagged].some((id) => !this.shownFlagged.has(id));
    this.shownFlagged = flagged;
    return { snapshot, changed };
  }
}
