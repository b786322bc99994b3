import type { MonitorEvent, PolicyAction } from '../../../../shared/model';
import type { IncidentGlue } from './incident-glue';
import type { MonitorState } from '../table/monitor-state';

/**
 * Where policies meet the monitor: their events are delivered like the poll's, a match is noted on the
 * group's open incident, and a policy's stop marks the group so its incidents end `stopped-by-policy`.
 */
export class PolicyGlue {
  constructor(
    private readonly state: MonitorState,
    private readonly incidents: IncidentGlue,
    private readonly flush: () => void,
  ) {}

  /** Delivers an event raised outside the poll (a policy's match or stop) to every listener. */
  record(event: MonitorEvent): void {
    const d = event.detail;
    if (event.type === 'policy-matched' && d && typeof d.policy === 'string') {
      this.incidents.notePolicy(event.groupId, {
        policy: d.policy,
        action: d.action as PolicyAction,
        executed: d.executed === true,
        at: event.at,
        ...(typeof d.reason === 'string' ? { reason: d.reason } : {}),
      });
    }
    this.state.pendingEvents.push(event);
    this.flush();
  }

  /**
   * Whether the group's open incident already notes this policy. A restarted Corral may give a group
   * whose leader has gone a new id; its restored incident is rebound to it, notes and all.
   */
  noted(groupId: string, policy: string): boolean {
    return this.incidents.hasPolicyNote(groupId, policy);
  }

  /**
   * A policy is stopping this group (its incidents then end `stopped-by-policy`); null takes that back
   * when the stop was refused before any signal.
   */
  noteStop(groupId: string, policy: string | null, at: number): void {
    const group = this.state.groups.get(groupId);
    if (!group) return;
    if (policy === null) {
      if (group.stoppedByPolicy === undefined) return;
      delete group.stoppedByPolicy;
      if (group.stopRequestedAt === at) group.stopRequestedAt = null;
      return;
    }
    group.stopRequestedAt ??= at;
    group.stoppedByPolicy ??= policy;
  }
}
