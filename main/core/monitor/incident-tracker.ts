import type { GroupFlag, Incident, IncidentEnd, IncidentKind } from '../../../shared/model';
import { commandOf } from '../analysis/grouping';
import type { TrackedGroup, TrackedProcess } from './tracked';

export interface IncidentChange {
  incident: Incident;
  change: 'opened' | 'closed' | 'updated';
}

const KIND_OF_FLAG: Record<GroupFlag, IncidentKind> = {
  orphan: 'orphan',
  leaderless: 'leaderless',
  runaway: 'runaway',
  'held-pipe': 'held-pipe',
  'memory-hog': 'memory-hog',
};

const processFlagged = (p: TrackedProcess, kind: IncidentKind): boolean =>
  kind === 'orphan'
    ? p.orphanedAt !== null
    : kind === 'runaway'
      ? p.runaway.active
      : kind === 'held-pipe'
        ? p.heldPipe !== null
        : true;

function listed(incident: Incident, p: TrackedProcess): boolean {
  for (const q of incident.processes)
    if (q.pid === p.record.pid && q.startKey === p.record.startKey) return true;
  return false;
}

/**
 * One incident per (group, flag): opened when the flag appears, accumulating CPU-seconds and peak
 * memory while it stays, closed when the group empties, the user stops it, or a runaway calms down.
 * update() runs for every live group on every poll, so it builds no keys and no arrays when nothing
 * changed.
 */
export class IncidentTracker {
  /** Open incidents by group id, then kind. */
  private readonly open = new Map<string, Map<IncidentKind, Incident>>();
  /** CPU time of each member at the last reading, by incident id, then process identity. */
  private readonly lastCpuMs = new Map<string, Map<string, number>>();
  private counter = 0;

  constructor(restored: readonly Incident[] = []) {
    for (const incident of restored) this.kindsOf(incident.groupId).set(incident.kind, incident);
  }

  openIncidents(): Incident[] {
    const out: Incident[] = [];
    for (const byKind of this.open.values()) for (const incident of byKind.values()) out.push(incident);
    return out;
  }

  /** Brings the group's incidents up to date with its flags. */
  update(group: TrackedGroup, flags: readonly GroupFlag[], now: number): IncidentChange[] {
    const changes: IncidentChange[] = [];
    const existing = this.open.get(group.id);
    if (flags.length === 0 && !existing) return changes;
    const byKind = existing ?? this.kindsOf(group.id);
    for (const flag of flags) {
      const kind = KIND_OF_FLAG[flag];
      let incident = byKind.get(kind);
      if (!incident) {
        incident = {
          id: `${now.toString(36)}-${(this.counter++).toString(36)}-${group.pgid}`,
          kind,
          agent: group.agent?.name ?? null,
          agentPid: group.agent?.pid ?? null,
          groupId: group.id,
          pgid: group.pgid,
          sid: group.sid,
          processes: [],
          openedAt: now,
          closedAt: null,
          cpuSeconds: 0,
          peakRssBytes: 0,
          end: 'open',
        };
        byKind.set(kind, incident);
        changes.push({ incident, change: 'opened' });
        this.accumulate(incident, group, kind);
        continue;
      }
      // Only a real change is worth a write: an idle orphan's incident stays as it was.
      const { cpuSeconds, peakRssBytes } = incident;
      const processes = incident.processes.length;
      this.accumulate(incident, group, kind);
      if (
        incident.cpuSeconds !== cpuSeconds ||
        incident.peakRssBytes !== peakRssBytes ||
        incident.processes.length !== processes
      )
        changes.push({ incident, change: 'updated' });
    }
    if (byKind.size > flags.length) {
      for (const [kind, incident] of [...byKind]) {
        if (flags.some((f) => KIND_OF_FLAG[f] === kind)) continue;
        const calmed = (kind === 'runaway' || kind === 'memory-hog') && group.live.size > 0;
        const end: IncidentEnd = calmed ? 'cleared' : 'exited';
        this.close(incident, end, now, changes);
      }
    }
    if (byKind.size === 0) this.open.delete(group.id);
    return changes;
  }

  /** The group emptied: every incident of it closes. */
  groupEnded(group: TrackedGroup, now: number): IncidentChange[] {
    const changes: IncidentChange[] = [];
    const end: IncidentEnd =
      group.stopRequestedAt === null
        ? 'exited'
        : group.stoppedByPolicy !== undefined
          ? 'stopped-by-policy'
          : 'stopped-by-user';
    for (const incident of [...(this.open.get(group.id)?.values() ?? [])])
      this.close(incident, end, now, changes);
    return changes;
  }

  /** Incidents restored at start-up whose processes are all gone: closed, time unknown beyond "by now". */
  closeRestoredIf(stillAlive: (incident: Incident) => boolean, now: number): IncidentChange[] {
    const changes: IncidentChange[] = [];
    for (const incident of this.openIncidents())
      if (!stillAlive(incident)) this.close(incident, 'exited', now, changes);
    return changes;
  }

  /** A restored incident's group reappeared under a (possibly new) group id. */
  rebind(incident: Incident, group: TrackedGroup): void {
    const byKind = this.open.get(incident.groupId);
    if (byKind?.get(incident.kind) !== incident) return;
    byKind.delete(incident.kind);
    if (byKind.size === 0) this.open.delete(incident.groupId);
    incident.groupId = group.id;
    this.kindsOf(group.id).set(incident.kind, incident);
  }

  private kindsOf(groupId: string): Map<IncidentKind, Incident> {
    let byKind = this.open.get(groupId);
    if (!byKind) {
      byKind = new Map();
      this.open.set(groupId, byKind);
    }
    return byKind;
  }

  private close(incident: Incident, end: IncidentEnd, now: number, changes: IncidentChange[]): void {
    incident.closedAt = now;
    incident.end = end;
    const byKind = this.open.get(incident.groupId);
    if (byKind?.get(incident.kind) === incident) {
      byKind.delete(incident.kind);
      if (byKind.size === 0) this.open.delete(incident.groupId);
    }
    this.lastCpuMs.delete(incident.id);
    changes.push({ incident, change: 'closed' });
  }

  private accumulate(incident: Incident, group: TrackedGroup, kind: IncidentKind): void {
    let lastCpu = this.lastCpuMs.get(incident.id);
    if (!lastCpu) {
      lastCpu = new Map();
      this.lastCpuMs.set(incident.id, lastCpu);
    }
    let rss = 0;
    let cpuSeconds = incident.cpuSeconds;
    for (const id of group.live) {
      const p = group.members.get(id);
      if (!p) continue;
      rss += p.record.rssBytes;
      const last = lastCpu.get(p.identity);
      if (last !== undefined) cpuSeconds += Math.max(0, p.record.cpuTimeMs - last) / 1000;
      if (last !== p.record.cpuTimeMs) lastCpu.set(p.identity, p.record.cpuTimeMs);
      if (processFlagged(p, kind) && !listed(incident, p)) {
        incident.processes.push({
          pid: p.record.pid,
          startKey: p.record.startKey,
          command: commandOf(p.record),
        });
      }
    }
    incident.cpuSeconds = Math.round(cpuSeconds * 1000) / 1000;
    incident.peakRssBytes = Math.max(incident.peakRssBytes, rss);
    // A memory hog's peak includes the window it was seen high before it was flagged.
    if (kind === 'memory-hog')
      incident.peakRssBytes = Math.max(incident.peakRssBytes, group.memory.peakBytes);
  }
}
