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
};

const processFlagged = (p: TrackedProcess, kind: IncidentKind): boolean =>
  kind === 'orphan'
    ? p.orphanedAt !== null
    : kind === 'runaway'
      ? p.runaway.active
      : kind === 'held-pipe'
        ? p.heldPipe !== null
        : true;

/**
 * One incident per (group, flag): opened when the flag appears, accumulating CPU-seconds and peak
 * memory while it stays, closed when the group empties, the user stops it, or a runaway calms down.
 */
export class IncidentTracker {
  private readonly open = new Map<string, Incident>();
  private readonly lastCpuMs = new Map<string, number>();
  private counter = 0;

  constructor(restored: readonly Incident[] = []) {
    for (const incident of restored) this.open.set(`${incident.groupId}|${incident.kind}`, incident);
  }

  openIncidents(): Incident[] {
    return [...this.open.values()];
  }

  /** Brings the group's incidents up to date with its flags. */
  update(group: TrackedGroup, flags: readonly GroupFlag[], now: number): IncidentChange[] {
    const changes: IncidentChange[] = [];
    const liveMembers = [...group.live].map((id) => group.members.get(id)!).filter(Boolean);
    const kinds = new Set(flags.map((f) => KIND_OF_FLAG[f]));
    for (const kind of kinds) {
      const key = `${group.id}|${kind}`;
      let incident = this.open.get(key);
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
        this.open.set(key, incident);
        changes.push({ incident, change: 'opened' });
        this.accumulate(incident, liveMembers, kind);
        continue;
      }
      // Only a real change is worth a write: an idle orphan's incident stays as it was.
      const before = `${incident.cpuSeconds}|${incident.peakRssBytes}|${incident.processes.length}`;
      this.accumulate(incident, liveMembers, kind);
      if (`${incident.cpuSeconds}|${incident.peakRssBytes}|${incident.processes.length}` !== before) {
        changes.push({ incident, change: 'updated' });
      }
    }
    for (const [key, incident] of this.open) {
      if (incident.groupId !== group.id || kinds.has(incident.kind)) continue;
      const end: IncidentEnd = incident.kind === 'runaway' && group.live.size > 0 ? 'cleared' : 'exited';
      this.closeKey(key, incident, end, now, changes);
    }
    return changes;
  }

  /** The group emptied: every incident of it closes. */
  groupEnded(group: TrackedGroup, now: number): IncidentChange[] {
    const changes: IncidentChange[] = [];
    const end: IncidentEnd = group.stopRequestedAt !== null ? 'stopped-by-user' : 'exited';
    for (const [key, incident] of this.open)
      if (incident.groupId === group.id) this.closeKey(key, incident, end, now, changes);
    return changes;
  }

  /** Incidents restored at start-up whose processes are all gone: closed, time unknown beyond "by now". */
  closeRestoredIf(stillAlive: (incident: Incident) => boolean, now: number): IncidentChange[] {
    const changes: IncidentChange[] = [];
    for (const [key, incident] of this.open)
      if (!stillAlive(incident)) this.closeKey(key, incident, 'exited', now, changes);
    return changes;
  }

  /** A restored incident's group reappeared under a (possibly new) group id. */
  rebind(incident: Incident, group: TrackedGroup): void {
    const oldKey = `${incident.groupId}|${incident.kind}`;
    if (this.open.get(oldKey) !== incident) return;
    this.open.delete(oldKey);
    incident.groupId = group.id;
    this.open.set(`${group.id}|${incident.kind}`, incident);
  }

  private closeKey(
    key: string,
    incident: Incident,
    end: IncidentEnd,
    now: number,
    changes: IncidentChange[],
  ): void {
    incident.closedAt = now;
    incident.end = end;
    this.open.delete(key);
    for (const cpuKey of this.lastCpuMs.keys())
      if (cpuKey.startsWith(`${incident.id}|`)) this.lastCpuMs.delete(cpuKey);
    changes.push({ incident, change: 'closed' });
  }

  private accumulate(incident: Incident, members: readonly TrackedProcess[], kind: IncidentKind): void {
    let rss = 0;
    for (const p of members) {
      rss += p.record.rssBytes;
      const key = `${incident.id}|${p.identity}`;
      const last = this.lastCpuMs.get(key);
      if (last !== undefined) incident.cpuSeconds += Math.max(0, p.record.cpuTimeMs - last) / 1000;
      this.lastCpuMs.set(key, p.record.cpuTimeMs);
      if (
        processFlagged(p, kind) &&
        !incident.processes.some((q) => q.pid === p.record.pid && q.startKey === p.record.startKey)
      ) {
        incident.processes.push({
          pid: p.record.pid,
          startKey: p.record.startKey,
          command: commandOf(p.record),
        });
      }
    }
    incident.cpuSeconds = Math.round(incident.cpuSeconds * 1000) / 1000;
    incident.peakRssBytes = Math.max(incident.peakRssBytes, rss);
  }
}
