import type { Incident, IncidentSession } from '../../../shared/model';

const isPort = (v: unknown): v is number =>
  Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 65_535;

function isSession(v: unknown): v is IncidentSession {
  if (typeof v !== 'object' || v === null) return false;
  const s = v as Record<string, unknown>;
  return typeof s.id === 'string' && s.id !== '' && (s.project === null || typeof s.project === 'string');
}

/**
 * The port facts of a stored incident body (its ports and session). They are decoration: a malformed
 * one is left out, never a reason to skip the incident.
 */
export function readPortFacts(r: Record<string, unknown>): Pick<Incident, 'ports' | 'session'> {
  const facts: Pick<Incident, 'ports' | 'session'> = {};
  if (Array.isArray(r.ports) && r.ports.every(isPort)) facts.ports = r.ports;
  if (isSession(r.session)) {
    facts.session = { id: r.session.id, project: r.session.project };
    const reason = (r.session as { endReason?: unknown }).endReason;
    if (typeof reason === 'string' && reason !== '') facts.session.endReason = reason;
  }
  return facts;
}
