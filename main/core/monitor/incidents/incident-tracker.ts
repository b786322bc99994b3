import type {
  GroupFlag,
  Incident,
  IncidentEnd,
  IncidentKind,
  IncidentSpan,
  IncidentTimeSource,
} from '../../../../shared/model';
import { FLAG_TABLE } from '../../../../shared/flags';
import { commandOf } from '../../analysis/grouping';
import { IncidentCpu } from './incident-cpu';
import type { TrackedGroup, TrackedProcess } from '../table/tracked';
import { NO_STOP_REQUESTS, type StopRequestSource } from './monitor-inputs';

export interface IncidentChange {
  incident: Incident;
  change: 'opened' | 'closed' | 'updated';
}

/** The flags that make a leak an incident, each its own kind (shared/flags.ts; session-ended only labels one). */
function isIncidentFlag(flag: GroupFlag): flag is IncidentKind {
  return FLAG_TABLE[flag].incident;
}

/** A storm's incident lists this many of its members (it may start thousands). */
const STORM_LISTED = 20;
/** No incident lists more processes than this (a leaderless loop's every child would be listed). */
const MAX_LISTED = 200;

/** A runaway hot from its first readings was already burning when Corral first looked at it. */
const HOT_AT_FIRST_LOOK_MS = 2_000;

interface PhaseStart {
  kind: IncidentKind;
  at: number;
  source: IncidentTimeSource;
}

const flaggedProcess = (p: TrackedProcess): boolean =>
  p.orphanedAt !== null || p.runaway.active || p.heldPipe !== null;

function listed(incident: Incident, p: TrackedProcess): boolean {
  for (const q of incident.processes)
    if (q.pid === p.record.pid && q.startKey === p.record.startKey) return true;
  return false;
}

function liveMembers(group: TrackedGroup): TrackedProcess[] {
  const out: TrackedProcess[] = [];
  for (const id of group.live) {
    const p = group.members.get(id);
    if (p) out.push(p);
  }
  return out;
}

/**
 * When the group's `kind` began, from what Corral saw of its processes; `now` when only noticed. A
 * time is `noticed` only when Corral cannot vouch for it: the process was already running when Corral
 * began watching. One born while Corral watched was looked at every poll, so even what Corral found
 * already done (a process found adopted, hot from its first reading) happened within a poll of then.
 */
function phaseStart(
  kind: IncidentKind,
  group: TrackedGroup,
  members: TrackedProcess[],
  now: number,
  watchingSince: number | null,
): PhaseStart {
  // Born after the first look (which sweeps the whole table): first seen later than it, on the
  // monitor's own clock (a kernel start time is only as exact as its clock tick and the boot time).
  const watchedFromBirth = (p: TrackedProcess): boolean =>
    watchingSince !== null && p.firstSeenAt > watchingSince;
  if (kind === 'orphan') {
    let best: PhaseStart | null = null;
    for (const p of members) {
      if (p.orphanedAt === null) continue;
      const reparent = p.markers.find((m) => m.kind === 'reparented');
      const start: PhaseStart = reparent
        ? { kind, at: reparent.at, source: 'observed' }
        : { kind, at: p.orphanedAt, source: watchedFromBirth(p) ? 'observed' : 'noticed' };
      if (!best || start.at < best.at) best = start;
    }
    return best ?? { kind, at: now, source: 'noticed' };
  }
  if (kind === 'leaderless') {
    let leaderSeen = false;
    for (const p of group.members.values()) if (p.record.pid === group.pgid) leaderSeen = true;
    return group.leaderExitedAt !== null &&
      (leaderSeen || [...group.members.values()].every(watchedFromBirth))
      ? { kind, at: group.leaderExitedAt, source: 'observed' }
      : { kind, at: group.leaderExitedAt ?? now, source: 'noticed' };
  }
  if (kind === 'runaway') {
    let best: PhaseStart | null = null;
    for (const p of members) {
      if (!p.runaway.active || p.runaway.hotSince === null) continue;
      const at = p.runaway.hotSince;
      const hotAtFirstLook = at - p.firstSeenAt <= HOT_AT_FIRST_LOOK_MS;
      const source = hotAtFirstLook && !watchedFromBirth(p) ? 'noticed' : 'observed';
      if (!best || at < best.at) best = { kind, at, source };
    }
    return best ?? { kind, at: now, source: 'noticed' };
  }
  return { kind, at: now, source: 'noticed' };
}

const spansOf = (incident: Incident, kind: IncidentKind): IncidentSpan[] | null =>
  kind === 'runaway' ? incident.phases.runaway : kind === 'held-pipe' ? incident.phases.heldPipe : null;

function openSpan(spans: IncidentSpan[]): IncidentSpan | null {
  const last = spans[spans.length - 1];
  return last && last.until === null ? last : null;
}

/** Changes whenever a phase starts or ends or a flag is added (spans only grow and close once). */
function phaseMark(incident: Incident): number {
  const { phases } = incident;
  const ends = (spans: IncidentSpan[]) => spans.length * 2 + (openSpan(spans) ? 0 : 1);
  return (
    incident.flags.length +
    8 * (phases.orphanedAt === null ? 0 : 1) +
    16 * (phases.leaderlessAt === null ? 0 : 1) +
    32 * ends(phases.runaway) +
    32 * 4096 * ends(phases.heldPipe)
  );
}

function closeSpans(incident: Incident, at: number): void {
  for (const spans of [incident.phases.runaway, incident.phases.heldPipe]) {
    const span = openSpan(spans);
    if (span) span.until = Math.max(span.from, at);
  }
}

/**
 * One incident per leaked group: opened at the group's first flag, with the time each flag began and
 * ended kept as phases, CPU-seconds and peak memory counted once for the whole group, and closed when
 * the group empties, the user stops it, or every flag has cleared. update() runs for every live group
 * on every poll, so it builds no keys and no arrays when nothing changed.
 *
 * Incidents restored from disk were opened by an earlier Corral: a flag this tracker has not itself
 * seen on the group is never taken as cleared because it is missing now (a restarted runaway window
 * has not filled yet), so a restored incident closes only when its group is seen ending.
 */
export class IncidentTracker {
  /** Open incidents by group id. */
  private readonly open = new Map<string, Incident>();
  /** What each incident has counted of its members' CPU (theirs and their reaped children's), by id. */
  private readonly cpu = new Map<string, IncidentCpu>();
  /** Flags this tracker has itself seen on each open incident, by incident id. */
  private readonly seen = new Map<string, Set<IncidentKind>>();
  private counter = 0;

  constructor(
    restored: readonly Incident[] = [],
    /** When the monitor's first poll looked (monitor-state.ts); null for none yet. */
    private readonly watchingSince: () => number | null = () => null,
    /** Stops asked by another command or Corral (monitor-inputs.ts). */
    private readonly stopRequests: StopRequestSource = NO_STOP_REQUESTS,
  ) {
    for (const incident of restored) {
      if (!this.open.has(incident.groupId)) this.open.set(incident.groupId, incident);
    }
  }

  openIncidents(): Incident[] {
    return [...this.open.values()];
  }

  /** The group's open incident, if it has one. */
  openFor(groupId: string): Incident | undefined {
    return this.open.get(groupId);
  }

  /** Brings the group's incident up to date with its flags. */
  update(group: TrackedGroup, groupFlags: readonly GroupFlag[], now: number): IncidentChange[] {
    const flags = groupFlags.filter(isIncidentFlag);
    let incident = this.open.get(group.id);
    if (flags.length === 0 && !incident) return [];
    const changes: IncidentChange[] = [];
    const members = liveMembers(group);
    if (!incident) {
      incident = this.openIncident(group, flags, members, now);
      changes.push({ incident, change: 'opened' });
    }
    const before = phaseMark(incident);
    const seen = this.seenOf(incident.id);
    for (const kind of flags) {
      seen.add(kind);
      if (!incident.flags.includes(kind)) incident.flags.push(kind);
      this.startPhase(incident, kind, group, members, now);
    }
    for (const kind of seen) {
      if (flags.includes(kind)) continue;
      const span = openSpan(spansOf(incident, kind) ?? []);
      if (span) span.until = now;
    }
    const { cpuSeconds, peakRssBytes } = incident;
    const processes = incident.processes.length;
    this.accumulate(incident, members);
    if (flags.length === 0 && seen.size > 0 && !this.hasUnseenOpenPhase(incident, seen)) {
      const anyListedAlive = members.some((p) => listed(incident, p));
      this.close(incident, anyListedAlive ? 'cleared' : 'exited', now, 'observed', changes);
      return changes;
    }
    if (
      changes.length === 0 &&
      (incident.cpuSeconds !== cpuSeconds ||
        incident.peakRssBytes !== peakRssBytes ||
        incident.processes.length !== processes ||
        phaseMark(incident) !== before)
    )
      changes.push({ incident, change: 'updated' });
    return changes;
  }

  /** The group emptied: its incident closes. */
  groupEnded(group: TrackedGroup, now: number): IncidentChange[] {
    const changes: IncidentChange[] = [];
    const incident = this.open.get(group.id);
    if (!incident) return changes;
    const end: IncidentEnd =
      group.stopRequestedAt !== null && group.stoppedByPolicy !== undefined
        ? 'stopped-by-policy'
        : group.stopRequestedAt !== null || this.askedElsewhere(group, incident, now)
          ? 'stopped-by-user'
          : 'exited';
    this.close(incident, end, now, 'observed', changes);
    return changes;
  }

  /**
   * Incidents restored at start-up whose processes are all gone: they ended while no Corral watched,
   * closed as `exited` with the time marked `noticed`.
   */
  closeRestoredIf(stillAlive: (incident: Incident) => boolean, now: number): IncidentChange[] {
    const changes: IncidentChange[] = [];
    for (const incident of this.openIncidents())
      if (!this.seen.has(incident.id) && !stillAlive(incident))
        this.close(incident, 'exited', now, 'noticed', changes);
    return changes;
  }

  /** A restored incident's group reappeared under a (possibly new) group id. */
  rebind(incident: Incident, group: TrackedGroup): void {
    if (this.open.get(incident.groupId) !== incident || this.open.has(group.id)) return;
    this.open.delete(incident.groupId);
    incident.groupId = group.id;
    this.open.set(group.id, incident);
  }

  private openIncident(
    group: TrackedGroup,
    flags: readonly IncidentKind[],
    members: TrackedProcess[],
    now: number,
  ): Incident {
    let first: PhaseStart | null = null;
    for (const flag of flags) {
      const start = phaseStart(flag, group, members, now, this.watchingSince());
      if (!first || start.at < first.at) first = start;
    }
    const earliest = members.length > 0 ? Math.min(...members.map((p) => p.record.startedAt)) : null;
    const incident: Incident = {
      id: `${now.toString(36)}-${(this.counter++).toString(36)}-${group.pgid}`,
      kind: first!.kind,
      agent: group.agent?.name ?? null,
      agentPid: group.agent?.pid ?? null,
      groupId: group.id,
      pgid: group.pgid,
      sid: group.sid,
      processes: [],
      openedAt: Math.min(first!.at, now),
      closedAt: null,
      cpuSeconds: 0,
      peakRssBytes: 0,
      end: 'open',
      flags: [first!.kind],
      phases: { orphanedAt: null, leaderlessAt: null, runaway: [], heldPipe: [] },
      openedAtSource: first!.source,
      earliestStartAt: earliest,
      closedAtSource: null,
    };
    this.open.set(group.id, incident);
    return incident;
  }

  private startPhase(
    incident: Incident,
    kind: IncidentKind,
    group: TrackedGroup,
    members: TrackedProcess[],
    now: number,
  ): void {
    const { phases } = incident;
    if (kind === 'orphan') {
      phases.orphanedAt ??= phaseStart(kind, group, members, now, this.watchingSince()).at;
    } else if (kind === 'leaderless') {
      phases.leaderlessAt ??= phaseStart(kind, group, members, now, this.watchingSince()).at;
    } else if (kind === 'memory-hog' || kind === 'spawn-storm') {
      // Kept as a flag and in the peak memory; its time span is not recorded as a phase.
      return;
    } else {
      const spans = spansOf(incident, kind)!;
      if (openSpan(spans)) return;
      const from = phaseStart(kind, group, members, now, this.watchingSince()).at;
      const last = spans[spans.length - 1];
      spans.push({ from: last?.until != null ? Math.max(from, last.until) : from, until: null });
    }
  }

  /** A `corral kill` (or another Corral) asked to stop this group while the incident was open. */
  private askedElsewhere(group: TrackedGroup, incident: Incident, now: number): boolean {
    const members = [...group.members.values()].map((p) => p.record);
    return (
      this.stopRequests({ id: group.id, pgid: group.pgid, members }, incident.openedAt - 60_000, now).length >
      0
    );
  }

  /** A restored phase (runaway, held pipe) still open that this tracker has not yet seen itself. */
  private hasUnseenOpenPhase(incident: Incident, seen: ReadonlySet<IncidentKind>): boolean {
    return (
      (!seen.has('runaway') && openSpan(incident.phases.runaway) !== null) ||
      (!seen.has('held-pipe') && openSpan(incident.phases.heldPipe) !== null)
    );
  }

  private seenOf(id: string): Set<IncidentKind> {
    let seen = this.seen.get(id);
    if (!seen) {
      seen = new Set();
      this.seen.set(id, seen);
    }
    return seen;
  }

  private close(
    incident: Incident,
    end: IncidentEnd,
    now: number,
    source: IncidentTimeSource,
    changes: IncidentChange[],
  ): void {
    incident.closedAt = Math.max(now, incident.openedAt);
    incident.closedAtSource = source;
    incident.end = end;
    closeSpans(incident, now);
    if (this.open.get(incident.groupId) === incident) this.open.delete(incident.groupId);
    this.cpu.delete(incident.id);
    this.seen.delete(incident.id);
    changes.push({ incident, change: 'closed' });
  }

  private accumulate(incident: Incident, members: TrackedProcess[]): void {
    let cpu = this.cpu.get(incident.id);
    if (!cpu) {
      cpu = new IncidentCpu();
      this.cpu.set(incident.id, cpu);
    }
    let rss = 0;
    const cpuSeconds = incident.cpuSeconds + cpu.add(members);
    // Group-wide flags concern every member: all are listed, so a cleared flag is told from an exit.
    const listAll = incident.flags.includes('leaderless') || incident.flags.includes('memory-hog');
    const listSome = incident.flags.includes('spawn-storm');
    for (const p of members) {
      rss += p.record.rssBytes ?? 0;
      const wanted = listAll || flaggedProcess(p) || (listSome && incident.processes.length < STORM_LISTED);
      if (wanted && incident.processes.length < MAX_LISTED && !listed(incident, p)) {
        incident.processes.push({
          pid: p.record.pid,
          startKey: p.record.startKey,
          command: commandOf(p.record),
        });
      }
    }
    incident.cpuSeconds = Math.round(cpuSeconds * 1000) / 1000;
    incident.peakRssBytes = Math.max(incident.peakRssBytes, rss);
  }
}
