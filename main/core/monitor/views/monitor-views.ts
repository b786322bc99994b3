import type {
  GroupTimeline,
  GroupView,
  LaneSegment,
  ProcessFlag,
  TimelineLane,
} from '../../../../shared/model';
import { GROUP_FLAGS, type GroupFlag } from '../../../../shared/flags';
import { buildGroups, commandOf, type ProcessAnnotation } from '../../analysis/grouping';
import { groupFlags } from '../table/group-flags';
import type { GroupViewCache } from './group-view-cache';
import type { TrackedProcess, TrackedTable } from '../table/tracked';

function annotation(p: TrackedProcess): ProcessAnnotation {
  const flags: ProcessFlag[] = [];
  if (p.orphanedAt !== null) flags.push('orphan');
  if (p.runaway.active) flags.push('runaway');
  if (p.heldPipe !== null) flags.push('held-pipe');
  const escaped = p.lineage !== null && !p.attribution?.isAgent && p.lineage.originPgid !== p.record.pgid;
  if (escaped) flags.push('escaped');
  const a: ProcessAnnotation = { cpuPercent: p.cpuPercent, flags };
  if (p.lineage && p.lineage.originalPpid !== p.record.ppid) a.originalPpid = p.lineage.originalPpid;
  if (p.orphanedAt !== null) a.orphanedAt = p.orphanedAt;
  if (p.heldPipe !== null) a.heldPipe = p.heldPipe;
  if (escaped && p.lineage) a.originGroup = { pgid: p.lineage.originPgid, sid: p.lineage.originSid };
  return a;
}

/**
 * The monitor's current picture as group views: agents' groups always, every other group with `all`.
 * With a `cache`, groups whose inputs did not change come back as copies of their last views, and only
 * the groups built afresh are handed to `decorate` (in place) before they are kept (see GroupViewCache).
 */
export function snapshotGroups(
  monitor: TrackedTable,
  {
    all = false,
    cache,
    decorate,
  }: { all?: boolean; cache?: GroupViewCache; decorate?: (built: GroupView[]) => void } = {},
): GroupView[] {
  if (!cache) {
    // Without `all`, only agents' processes are gathered: the tray asks for this every tick.
    const live: TrackedProcess[] = [];
    for (const p of monitor.trackedProcesses())
      if (p.exitedAt === null && (all || p.attribution !== null)) live.push(p);
    const views = buildViews(monitor, live);
    decorate?.(views);
    return views;
  }
  const byPgid = new Map<number, TrackedProcess[]>();
  const attributed: TrackedProcess[] = [];
  for (const p of monitor.trackedProcesses()) {
    if (p.exitedAt !== null || p.record.pgid <= 0) continue;
    if (p.attribution !== null) attributed.push(p);
    else if (!all) continue;
    const members = byPgid.get(p.record.pgid);
    if (members) members.push(p);
    else byPgid.set(p.record.pgid, [p]);
  }
  cache.relate(attributed);
  const reused: GroupView[] = [];
  const rebuild: TrackedProcess[] = [];
  for (const [pgid, members] of byPgid) {
    const view = cache.reuse(monitor, pgid, members);
    if (view) reused.push(view);
    else for (const p of members) rebuild.push(p);
  }
  const built = buildViews(monitor, rebuild);
  decorate?.(built);
  return [...reused, ...cache.keep(built)];
}

function buildViews(monitor: TrackedTable, live: readonly TrackedProcess[]): GroupView[] {
  const byPid = new Map(live.map((p) => [p.record.pid, p]));
  const records = live.map((p) => p.record);
  // The monitor attributed each process at first sight; grouping only needs that map.
  const attributions = new Map(live.filter((p) => p.attribution).map((p) => [p.record.pid, p.attribution!]));
  return buildGroups(
    records,
    attributions,
    (r) => annotation(byPid.get(r.pid)!),
    (pgid, members) => monitor.liveGroup(pgid)?.id ?? defaultId(pgid, members),
  ).map((g) => {
    const tracked = monitor.liveGroup(g.pgid);
    if (!tracked) return g;
    // The monitor knows the leader exited even when the pid shows nothing now.
    const view = { ...g, flags: mergeFlags(g.flags, groupFlags(tracked)) };
    if (tracked.spawns?.facts) view.spawnStorm = tracked.spawns.facts;
    return view;
  });
}

function defaultId(pgid: number, members: readonly { pid: number; startKey: number }[]): string {
  const leader = members.find((m) => m.pid === pgid) ?? members[0]!;
  return `${pgid}:${leader.pid}:${leader.startKey}`;
}

function mergeFlags(a: readonly GroupFlag[], b: readonly GroupFlag[]): GroupFlag[] {
  const both = new Set([...a, ...b]);
  return GROUP_FLAGS.filter((f) => both.has(f));
}

/** One lane per process that was ever in the group (or left it by setsid), for the timeline view. */
export function groupTimeline(
  monitor: TrackedTable,
  groupId: string,
  sinceMs = 0,
  now = Date.now(),
): GroupTimeline | null {
  const group = monitor.groupById(groupId);
  if (!group) return null;
  const lanes: TimelineLane[] = [];
  for (const p of group.members.values()) {
    const r = p.record;
    const end = p.exitedAt;
    if (end !== null && end < sinceMs) continue;
    const segments: LaneSegment[] = [];
    const orphanFrom = p.orphanedAt;
    // Before Corral first saw it the process was not observed: the lane's running segment starts
    // at first sight, and the UI draws the time from start to first sight as "not observed".
    const seenFrom = Math.max(r.startedAt, Math.min(p.firstSeenAt, orphanFrom ?? p.firstSeenAt));
    segments.push({ from: seenFrom, to: orphanFrom ?? end, kind: 'running' });
    if (orphanFrom !== null) segments.push({ from: orphanFrom, to: end, kind: 'orphaned' });
    for (const [from, to] of p.runawaySpans) segments.push({ from, to: to ?? end, kind: 'runaway' });
    lanes.push({
      pid: r.pid,
      startKey: r.startKey,
      ppid: r.ppid,
      pgid: r.pgid,
      sid: r.sid,
      command: commandOf(r),
      startedAt: r.startedAt,
      exitedAt: end,
      leftGroup: r.pgid !== group.pgid,
      cpuSeconds: r.cpuTimeMs === null ? null : Math.round(r.cpuTimeMs) / 1000,
      segments,
      cpu: p.history?.points(sinceMs) ?? [],
      markers: p.markers.filter((m) => m.at >= sinceMs),
    });
  }
  lanes.sort((a, b) => a.startedAt - b.startedAt || a.pid - b.pid);
  const from = Math.max(sinceMs, Math.min(group.startedAt, ...lanes.map((l) => l.startedAt)));
  return {
    groupId: group.id,
    pgid: group.pgid,
    sid: group.sid,
    agent: group.agent,
    from,
    to: group.endedAt ?? now,
    lanes,
  };
}
