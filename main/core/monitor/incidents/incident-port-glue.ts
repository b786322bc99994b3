import { groupPortNumbers } from '../../../../shared/words/provenance-text';
import type { GroupView, Incident } from '../../../../shared/model';
import type { IncidentGlue } from './incident-glue';

/**
 * Pure: adds a decorated view's listening ports and session to its group's incident (ports only ever
 * added: a server that closed its socket still held the port while the incident was open); true when
 * the incident changed.
 */
export function notePortFacts(
  incident: Incident,
  view: Pick<GroupView, 'ports' | 'processes' | 'session'>,
): boolean {
  let changed = false;
  const seen = groupPortNumbers(view);
  const known = incident.ports ?? [];
  const added = seen.filter((p) => !known.includes(p));
  if (added.length > 0) {
    incident.ports = [...known, ...added].sort((a, b) => a - b);
    changed = true;
  }
  const s = view.session;
  if (s && (incident.session?.id !== s.id || (incident.session.project === null && s.project !== null))) {
    incident.session = { id: s.id, project: s.project };
    changed = true;
  }
  if (s?.endReason && incident.session?.id === s.id && incident.session.endReason !== s.endReason) {
    incident.session.endReason = s.endReason;
    changed = true;
  }
  return changed;
}

/**
 * Where decorated views meet incidents: each time the service builds its views (provenance read: ports,
 * session, project), what they say is noted on the groups' open incidents (or on the one a live group
 * opens next), so that history can tell who held a port (`corral ps --port`, the UI's port history) after the group is gone.
 */
export class IncidentPortGlue {
  constructor(
    private readonly incidents: Pick<IncidentGlue, 'amendOpenOrNext'>,
    private readonly flush: () => void,
  ) {}

  noteViews(groups: readonly GroupView[]): void {
    let changed = false;
    for (const g of groups) {
      if (g.ports === undefined && g.session == null) continue;
      if (this.incidents.amendOpenOrNext(g.id, (incident) => notePortFacts(incident, g))) changed = true;
    }
    if (changed) this.flush();
  }
}
