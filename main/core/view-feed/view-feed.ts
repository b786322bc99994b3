import type { GroupView, Snapshot } from '../../../shared/model';
import type { HostFacts } from '../host/host-info';
import type { Monitor } from '../monitor/monitor';
import { GroupViewCache } from '../monitor/views/group-view-cache';
import { snapshotGroups } from '../monitor/views/monitor-views';
import { DECORATED_VIEW_MAX_AGE_MS, type GroupContext } from '../provenance/group-context';
import { AgentsLevel } from './agents-level';
import type { SnapshotPush } from './snapshot-deltas';
import { SnapshotPushes } from './snapshot-pushes';
import { onViewTick } from './view-ticks';

/** How long a viewer may be shown views of an unchanged table before they are built again. */
const VIEWS_MAX_AGE_MS = 5_000;

export interface ViewFeedParts {
  monitor: Monitor;
  /** Provenance and keeps, added to the views on the service side. */
  context: GroupContext;
  host: HostFacts;
  /** Sweep the whole table more often while the all-groups level is subscribed. */
  wholeTableWhenWatched: boolean;
}

/**
 * The one feed of views every front end's pushes come from, at two levels: every group with its
 * provenance (`all`, a window or a page, host facts included), or agents' groups only (`agents`, the
 * tray with no window open), which reads no provenance: it recalls what the other level found.
 *
 * The all level keeps each group's view while its inputs stand (GroupViewCache), and the whole list while
 * the monitor's view version stands and for at most VIEWS_MAX_AGE_MS (provenance also comes from files,
 * cwd and ports, which change without the monitor seeing it). Each snapshot pushed is folded into deltas
 * once, for every transport (`subscribePushes`). While it is subscribed, the snapshot the deltas chain on
 * (or, with only whole-snapshot listeners, the one pushed last) is the one `snapshot:get` answers with, so
 * that a receiver's deltas chain on from what it fetched.
 */
export class ViewFeed {
  readonly agents: AgentsLevel;
  private seq = 0;
  private readonly cache = new GroupViewCache({ decoratedMaxAgeMs: DECORATED_VIEW_MAX_AGE_MS });
  private built: { version: number; at: number; groups: GroupView[] } | null = null;
  private readonly listeners = new Set<(s: Snapshot) => void>();
  private readonly pushes = new SnapshotPushes();
  private offTick: (() => void) | null = null;
  private latest: Snapshot | null = null;
  private hostReadAtSweep = -1;

  constructor(private readonly parts: ViewFeedParts) {
    this.agents = new AgentsLevel(parts.monitor, (views) => this.agentsSnapshot(views));
  }

  /** Every group with its provenance: the snapshot last pushed while subscribed, or one taken now. */
  all(): Snapshot {
    if (this.offTick === null) return this.take();
    return this.pushes.latest ?? this.latest ?? this.take();
  }

  /**
   * Agents' groups only, without host facts or provenance reads: what a tray needs, at a fraction of a
   * full snapshot. With a `cache`, the groups unchanged since its last snapshot are not built again;
   * `built` gets those that were.
   */
  agentsSnapshot(views?: { cache: GroupViewCache; built?: (groups: GroupView[]) => void }): Snapshot {
    const { monitor, context } = this.parts;
    return {
      seq: ++this.seq,
      sampledAt: Date.now(),
      groups: context.recall(snapshotGroups(monitor, views && { cache: views.cache, decorate: views.built })),
    };
  }

  /** Snapshots of every group, pushed on each view tick (view-ticks.ts) while anyone listens. */
  subscribe(listener: (snapshot: Snapshot) => void): () => void {
    this.listeners.add(listener);
    this.watch();
    return () => {
      this.listeners.delete(listener);
      this.unwatch();
    };
  }

  /** The same snapshots as what to send a receiver: whole first, then deltas (SnapshotPushes). */
  subscribePushes(listener: (push: SnapshotPush) => void): () => void {
    const off = this.pushes.subscribe(listener);
    this.watch();
    return () => {
      off();
      this.unwatch();
    };
  }

  private watch(): void {
    const { monitor } = this.parts;
    this.offTick ??= onViewTick(monitor, () => this.push());
    monitor.setWholeTableWanted(this.parts.wholeTableWhenWatched);
  }

  private unwatch(): void {
    if (this.listeners.size > 0 || this.pushes.listened || this.offTick === null) return;
    this.offTick();
    this.offTick = null;
    this.latest = null;
    this.parts.monitor.setWholeTableWanted(false);
  }

  /** What the views show changed outside the monitor (a keep): built again, and pushed at once. */
  changed(): void {
    this.built = null;
    if (this.offTick !== null) this.push();
  }

  private push(): void {
    const { monitor, host } = this.parts;
    // Host facts are read with the whole-table sweeps a viewer asks for (every 5 s), so that both
    // changes reach it in one push and one redraw, not two.
    if (monitor.sweepCount !== this.hostReadAtSweep) {
      this.hostReadAtSweep = monitor.sweepCount;
      host.refresh?.();
    }
    const s = this.take();
    this.latest = s;
    for (const l of this.listeners) l(s);
    this.pushes.next(s);
  }

  private take(): Snapshot {
    return { seq: ++this.seq, sampledAt: Date.now(), groups: this.groups(), host: this.parts.host.current() };
  }

  private groups(): GroupView[] {
    const { monitor, context } = this.parts;
    const version = monitor.viewVersion;
    // Monotonic: a wall clock set back must not keep old views on screen.
    const at = performance.now();
    if (this.built?.version === version && at - this.built.at < VIEWS_MAX_AGE_MS) return this.built.groups;
    const groups = context.currentViews((decorate) =>
      snapshotGroups(monitor, { all: true, cache: this.cache, decorate }),
    );
    monitor.incidentPorts.noteViews(groups);
    this.built = { version, at, groups };
    return groups;
  }
}
