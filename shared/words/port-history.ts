// Who held a port before: from the incidents that recorded the port (Incident.ports), so that a dev
// server's drift (3000 → 3001 → 3002, each new session starting it again on the next free port) is
// visible from any of those ports. The same in `corral ps --port` and in the UI.
import { INCIDENT_END_WORDS } from './end-words';
import { formatDuration } from './format';
import { commandThatMatters } from './command-summary';
import type { Incident, IncidentEnd } from '../model';

export const PORT_HISTORY_WINDOW_MS = 24 * 3_600_000;
/** How many ports above the asked one count as its neighbours (where a server moves when it is taken). */
export const PORT_DRIFT_SPAN = 9;

/** One group that held a port, as an incident recorded it. */
export interface PortHolding {
  port: number;
  groupId: string;
  pgid: number;
  /** The command a person recognises (the user's command inside an agent's wrapper shell). */
  command: string;
  agent: string | null;
  sessionId: string | null;
  project: string | null;
  /** When the incident opened (the group was flagged), ms since epoch. */
  from: number;
  /** When it closed; null while the group still runs flagged. */
  until: number | null;
  end: IncidentEnd;
}

/**
 * Pure: the holdings of `port` and its upper neighbours (port+1 … port+PORT_DRIFT_SPAN) recorded by
 * incidents open at some time in the last `windowMs`, oldest first; one row per incident and port.
 */
export function portHistory(
  incidents: readonly Incident[],
  port: number,
  now: number,
  windowMs = PORT_HISTORY_WINDOW_MS,
): PortHolding[] {
  return holdingsBetween(incidents, port, port + PORT_DRIFT_SPAN, now, windowMs);
}

/**
 * Pure: the holdings of `port` and the ports below it (port−PORT_DRIFT_SPAN … port), oldest first: seen
 * from a server on :3002, where its predecessors were before they drifted up to it (the UI's list).
 */
export function portHistoryUpTo(
  incidents: readonly Incident[],
  port: number,
  now: number,
  windowMs = PORT_HISTORY_WINDOW_MS,
): PortHolding[] {
  return holdingsBetween(incidents, Math.max(1, port - PORT_DRIFT_SPAN), port, now, windowMs);
}

function holdingsBetween(
  incidents: readonly Incident[],
  low: number,
  high: number,
  now: number,
  windowMs: number,
): PortHolding[] {
  const since = now - windowMs;
  const rows: PortHolding[] = [];
  for (const i of incidents) {
    if (i.closedAt !== null && i.closedAt < since) continue;
    for (const p of i.ports ?? []) {
      if (p < low || p > high) continue;
      rows.push({
        port: p,
        groupId: i.groupId,
        pgid: i.pgid,
        command: commandThatMatters(i.processes[0]?.command ?? ''),
        agent: i.agent,
        sessionId: i.session?.id ?? null,
        project: i.session?.project ?? null,
        from: i.openedAt,
        until: i.closedAt,
        end: i.end,
      });
    }
  }
  return rows.sort((a, b) => a.from - b.from || a.port - b.port);
}

/** The ports the history moved through, in the order they were first held: [3000, 3001, 3002]. */
export function portDrift(history: readonly PortHolding[]): number[] {
  const ports: number[] = [];
  for (const h of history) if (!ports.includes(h.port)) ports.push(h.port);
  return ports;
}

// A port's holder "still running" where an incident is "still open" (shared/words/end-words.ts).
const END_WORDS: Record<IncidentEnd, string> = {
  ...INCIDENT_END_WORDS,
  open: 'still running',
  unknown: 'end not known',
};

/** When a group held the port and how that ended, "2h05m ago, stopped by you 5m12s ago". */
export function holdingWhen(h: PortHolding, now: number): string {
  const end = h.until === null ? END_WORDS.open : `${END_WORDS[h.end]} ${formatDuration(now - h.until)} ago`;
  return `${formatDuration(now - h.from)} ago, ${end}`;
}
