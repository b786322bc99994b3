// Label values must stay few: every distinct value is a time series in every Prometheus that scrapes
// Corral. So labels come only from closed sets (the agents Corral knows, its flags, incident kinds,
// teardown outcomes); anything else is folded into one fixed value, never a pid, command or path.
import { AGENT_NAMES } from '../../shared/model';
import { GROUP_FLAGS, INCIDENT_KINDS } from '../../shared/flags';

// Every flag and incident kind is its own label value: they come from the one table (shared/flags.ts).
export { GROUP_FLAGS, INCIDENT_KINDS };

/** The agent label of a group or incident no agent owns. */
export const NO_AGENT = 'none';
/** The agent label of a name outside the known set (it cannot happen today; it must stay bounded). */
export const OTHER = 'other';

export const TEARDOWN_OUTCOMES = ['clean', 'partial', 'refused', 'stopped-by-policy'] as const;
export type TeardownOutcomeLabel = (typeof TEARDOWN_OUTCOMES)[number];

/** Built-in agents plus the names of the user's configured signatures. */
export function knownAgents(configured: readonly { name: string }[]): Set<string> {
  return new Set<string>([...AGENT_NAMES, ...configured.map((a) => a.name)]);
}

export function agentLabel(name: string | null | undefined, known: ReadonlySet<string>): string {
  if (name === null || name === undefined) return NO_AGENT;
  return known.has(name) ? name : OTHER;
}

export function flagLabel(flag: string): string {
  return (GROUP_FLAGS as readonly string[]).includes(flag) ? flag : OTHER;
}

export function kindLabel(kind: unknown): string {
  return typeof kind === 'string' && (INCIDENT_KINDS as readonly string[]).includes(kind) ? kind : OTHER;
}
