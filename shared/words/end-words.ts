// How an incident ended, in the words the CLI (`corral history`) and the UI's Incidents page both
// show; the term (`stopped-by-user`) stays in JSON.
import type { IncidentEnd } from '../events-model';

export const INCIDENT_END_WORDS = {
  open: 'still open',
  exited: 'exited',
  'stopped-by-user': 'stopped by you',
  'stopped-by-policy': 'stopped by a policy',
  cleared: 'cleared',
  unknown: 'not known',
} as const satisfies Record<IncidentEnd, string>;

/** An incident's end in words; an open incident whose group the user kept says so. */
export function incidentEndWords(end: IncidentEnd, kept = false): string {
  return end === 'open' && kept ? 'still open (kept)' : INCIDENT_END_WORDS[end];
}
