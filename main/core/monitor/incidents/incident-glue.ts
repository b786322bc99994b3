import type { Incident, PolicyNote, SpawnStormFacts } from '../../../../shared/model';
import { recordedGroupId } from '../../analysis/recorded-group-ids';
import { incidentFlags } from '../table/group-flags';
import { IncidentTracker, type IncidentChange } from './incident-tracker';
import type { StopRequestSource } from './monitor-inputs';
import { INCIDENT_EVERY_MS } from '../table/group-spawns';
import type { GroupIncidents } from '../table/group-tracker';
import type { MonitorState } from '../table/monitor-state';
import type { TrackedGroup } from '../table/tracked';

/** Turns groups' flags into incidents and incident changes into events and pending saves. */
export class IncidentGlue implements GroupIncidents {
  private readonly tracker: IncidentTracker;
  /**
   * What a view said of a live group before its incident opened (its ports, session, project): a server's
   * port is read while its tool call still runs, and the group may end before another view is built.
   */
  private readonly beforeOpen = new Map<string, (incident: Incident) => boolean>();

  constructor(
    private readonly state: MonitorState,
    restored: readonly Incident[],
    stopRequests?: StopRequestSource,
  ) {
    this.tracker = new IncidentTracker(restored, () => state.watchingSince, stopRequests);
  }

  openIncidents(): Incident[] {
    return this.tracker.openIncidents();
  }

  /**
   * The id an open incident gave this group when another Corral (or this one before a restart) saw it
   * first, while its leader may still have lived; null when none names it.
   */
  recordedIdFor(pgid: number, members: readonly { pid: number; startKey: number }[]): string | null {
    return recordedGroupId(this.tracker.openIncidents(), pgid, members);
  }

  /**
   * Notes a policy's match on the group's open incident, if it has one (saved with the next flush). A
   * policy's note is kept once per incident.
   */
  notePolicy(groupId: string, note: PolicyNote): void {
    const incident = this.tracker.openFor(groupId);
    if (!incident) return;
    const notes = (incident.policyNotes ??= []);
    if (notes.some((n) => n.policy === note.policy && n.executed === note.executed)) return;
    notes.push(note);
    this.state.pendingIncidentSaves.set(incident.id, incident);
  }

  /** Records a spawn storm's facts on the group's open incident (saved with the next flush); false: none open. */
  noteSpawnStorm(groupId: string, facts: SpawnStormFacts): boolean {
    return this.amendOpen(groupId, (incident) => {
      incident.spawnStorm = facts;
      return true;
    });
  }

  /** Lets `note` amend the group's open incident; saved with the next flush when `note` says it changed it. */
  amendOpen(groupId: string, note: (incident: Incident) => boolean): boolean {
    const incident = this.tracker.openFor(groupId);
    if (!incident || !note(incident)) return false;
    this.state.pendingIncidentSaves.set(incident.id, incident);
    return true;
  }

  /** As amendOpen; for a live group with no incident yet, `note` amends the incident it opens next. */
  amendOpenOrNext(groupId: string, note: (incident: Incident) => boolean): boolean {
    if (this.tracker.openFor(groupId)) return this.amendOpen(groupId, note);
    if (this.state.groups.get(groupId)?.endedAt === null) this.beforeOpen.set(groupId, note);
    return false;
  }

  /** Whether the group's open incident already notes this policy (it may predate a restart). */
  hasPolicyNote(groupId: string, policy: string): boolean {
    return this.tracker.openFor(groupId)?.policyNotes?.some((n) => n.policy === policy) ?? false;
  }

  /** Every live group's incidents follow its flags. */
  updateAll(now: number): void {
    for (const group of this.state.liveGroupByPgid.values()) {
      if (group.members.size === 0) continue;
      this.apply(this.tracker.update(group, incidentFlags(group), now), group, now);
    }
  }

  groupEnded(group: TrackedGroup, now: number): void {
    this.apply(this.tracker.groupEnded(group, now), group, now);
    this.beforeOpen.delete(group.id);
  }

  /** A restored incident whose processes are this new group's belongs to it. */
  rebind(group: TrackedGroup): void {
    for (const incident of this.tracker.openIncidents()) {
      if (incident.pgid !== group.pgid || incident.groupId === group.id) continue;
      const sameProcess = incident.processes.some((ip) =>
        [...group.members.values()].some((m) => m.record.pid === ip.pid && m.record.startKey === ip.startKey),
      );
      if (sameProcess) this.tracker.rebind(incident, group);
    }
  }

  /** Closes restored incidents whose processes and group are gone from the first table read. */
  closeRestored(now: number): void {
    const state = this.state;
    const alive = (incident: Incident): boolean =>
      incident.processes.some((ip) => {
        const p = state.procs.get(ip.pid);
        return p !== undefined && p.record.startKey === ip.startKey && p.exitedAt === null;
      }) || state.liveGroupByPgid.get(incident.pgid)?.id === incident.groupId;
    for (const { incident } of this.tracker.closeRestoredIf(alive, now)) {
      state.pendingIncidentSaves.set(incident.id, incident);
      state.pendingEvents.push({
        type: 'incident-closed',
        at: now,
        groupId: incident.groupId,
        pid: incident.processes[0]?.pid ?? incident.pgid,
        pgid: incident.pgid,
        sid: incident.sid,
        agent: incident.agent ? { name: incident.agent, pid: incident.agentPid } : null,
        detail: {
          incidentId: incident.id,
          kind: incident.kind,
          end: incident.end,
          cpuSeconds: incident.cpuSeconds,
        },
      });
    }
  }

  /**
   * A storming group's incident changes at every poll (its children's CPU): it is written at most every
   * few seconds (and with the storm's facts: spawn-storm-check), not at every poll.
   */
  private stormSaveWaits(group: TrackedGroup, now: number): boolean {
    const spawns = group.spawns;
    if (!spawns || (!spawns.state.active && spawns.state.highSince === null)) return false;
    if (now - spawns.savedAt < INCIDENT_EVERY_MS) return true;
    spawns.savedAt = now;
    return false;
  }

  private apply(changes: readonly IncidentChange[], group: TrackedGroup, now: number): void {
    for (const { incident, change } of changes) {
      if (change === 'opened') {
        this.beforeOpen.get(group.id)?.(incident);
        this.beforeOpen.delete(group.id);
      }
      if (change === 'updated' && this.stormSaveWaits(group, now)) continue;
      this.state.pendingIncidentSaves.set(incident.id, incident);
      if (change === 'updated') continue;
      this.state.pendingEvents.push({
        type: change === 'opened' ? 'incident-opened' : 'incident-closed',
        at: now,
        groupId: group.id,
        pid: incident.processes[0]?.pid ?? group.pgid,
        pgid: group.pgid,
        sid: group.sid,
        agent: group.agent,
        detail: {
          incidentId: incident.id,
          kind: incident.kind,
          end: incident.end,
          cpuSeconds: incident.cpuSeconds,
        },
      });
    }
  }
}
