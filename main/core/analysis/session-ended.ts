import {
  HOOK_AGENT_NAMES,
  markersMeaning,
  SESSION_MEANINGS,
  type HookAgentName,
} from '../../../shared/agents';
import type { GroupView } from '../../../shared/model';

// Sessions an agent's SessionEnd hook reported ended (storage/ended-sessions.ts keeps them), and the
// pure decision which groups are their leftovers.

/**
 * Environment markers whose value is a session id the agent's hooks report ends of (the id its hook
 * payloads carry), and whose agent's: from the agent table.
 */
const SESSION_ID_MARKER_AGENTS: ReadonlyMap<string, HookAgentName> = new Map(
  HOOK_AGENT_NAMES.flatMap((agent) =>
    markersMeaning(agent, ...SESSION_MEANINGS).map((k) => [k, agent] as const),
  ),
);

export interface EndedSession {
  agent: string;
  sessionId: string;
  /** When the session ended, ms since epoch. */
  endedAt: number;
  /** The reason its SessionEnd hook gave, where it gave one. */
  reason?: string;
}

export type EndedSessions = ReadonlyMap<string, EndedSession>;

/** An agent process running now, and the session provenance tied it to (null: none found). */
export interface LiveAgent {
  name: string;
  pid: number;
  startKey: number;
  sessionId: string | null;
}

/**
 * Whose end is held: the sessions a running agent process is tied to (`sessions`), and the kinds of
 * agent with a running process tied to no session (`untied`), which may be running any session of its
 * kind. A SessionEnd is a message (anyone who read the hook token and a session id could send one): it
 * never ends a session whose agent may still run; it counts once that agent is gone.
 */
export interface HeldSessions {
  sessions: ReadonlySet<string>;
  untied: ReadonlySet<string>;
}

/**
 * Pure: the held sessions, from the agent processes running now (`agents`, checked by the caller
 * against the identity, pid and start stamp, of what runs) and the groups whose session's agent is
 * known alive.
 */
export function heldSessions(groups: readonly GroupView[], agents: readonly LiveAgent[]): HeldSessions {
  const sessions = new Set<string>();
  const untied = new Set<string>();
  for (const a of agents) {
    if (a.sessionId === null) untied.add(a.name);
    else sessions.add(a.sessionId);
  }
  for (const g of groups) if (g.session?.agentAlive === true) sessions.add(g.session.id);
  return { sessions, untied };
}

/**
 * Pure: the ended session a process belongs to, or null. A process started after its session's end
 * (a resumed session reuses the id) is not a leftover of the ended one; one second of slack covers
 * the start-time rounding of /proc (boot time has whole-second resolution). A held session (its agent
 * may run) has not ended, whatever was recorded.
 */
export function endedSessionOf(
  markers: Readonly<Record<string, string>>,
  startedAt: number,
  ended: EndedSessions,
  held: HeldSessions,
): EndedSession | null {
  if (ended.size === 0) return null;
  for (const [key, agent] of SESSION_ID_MARKER_AGENTS) {
    const id = markers[key];
    if (!id || held.sessions.has(id) || held.untied.has(agent)) continue;
    const end = ended.get(id);
    if (end && startedAt <= end.endedAt + 1000) return end;
  }
  return null;
}

/**
 * Pure: the groups with `session-ended` added where a live member belongs to an ended session whose
 * agent is gone (not `held`). `markersOf(pid)` gives a member's environment markers
 * (from the same sample the groups came from). This is the function the long-running monitor calls too.
 */
export function flagSessionEnded(
  groups: readonly GroupView[],
  markersOf: (pid: number) => Readonly<Record<string, string>> | undefined,
  ended: EndedSessions,
  held: HeldSessions,
): GroupView[] {
  if (ended.size === 0) return [...groups];
  return groups.map((g) => {
    if (g.flags.includes('session-ended') || g.session?.agentAlive === true) return g;
    let hit: EndedSession | null = null;
    for (const p of g.processes) {
      const markers = markersOf(p.pid);
      hit =
        p.state !== 'Z' && markers !== undefined ? endedSessionOf(markers, p.startedAt, ended, held) : null;
      if (hit) break;
    }
    if (!hit) return g;
    const session =
      g.session && g.session.id === hit.sessionId && hit.reason
        ? { ...g.session, endReason: hit.reason }
        : g.session;
    return { ...g, flags: [...g.flags, 'session-ended'], ...(session !== g.session ? { session } : {}) };
  });
}
