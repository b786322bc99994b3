import type { GroupView, SessionRef } from '../../../shared/model';
import type { ProcessRecord } from '../model/process-record';
import type { Attribution } from './attribution';
import type { EndedSession, EndedSessions } from './session-ended';

/** An agent's own process running now, whose session list may be read. */
export interface RunningAgent {
  agent: string;
  pid: number;
  uid: number;
  argv: readonly string[];
}

/** Who reads the agents' lists (main/core/agent-sessions/): told the agents running, asked what they say. */
export interface ListedSessionsSource {
  /** Starts a read of each list that is due; never waits. */
  observe(agents: readonly RunningAgent[]): void;
  current(): ListedSessions;
}

/** Pure: the agents' own processes in a sample (not their tool calls), live ones only. */
export function runningAgentsOf(
  records: readonly ProcessRecord[],
  attributions: ReadonlyMap<number, Attribution>,
): RunningAgent[] {
  const agents: RunningAgent[] = [];
  for (const r of records) {
    const a = attributions.get(r.pid);
    if (a?.isAgent && r.state !== 'Z') agents.push({ agent: a.agent, pid: r.pid, uid: r.uid, argv: r.argv });
  }
  return agents;
}

/** One session as an agent's own list names it (main/core/agent-sessions/ reads the lists). */
export interface ListedSession {
  agent: string;
  sessionId: string;
  /** The session's agent process, where the list names it. */
  pid: number | null;
  name: string | null;
  kind: string | null;
  status: string | null;
  state: string | null;
  /** The list names it as over (Claude Code `--all`: `stopped`, `done`, `failed`, `crashed`). */
  ended: boolean;
}

/**
 * What the agents' lists say now: the sessions they list, and the sessions a list named before and no
 * longer does (ended, as the agent itself says), with when that was first seen.
 */
export interface ListedSessions {
  running: ReadonlyMap<string, ListedSession>;
  gone: ReadonlyMap<string, { agent: string; goneAt: number }>;
}

export const NO_LISTED_SESSIONS: ListedSessions = { running: new Map(), gone: new Map() };

/**
 * Pure: each group's session with what its agent's list says. A listed session gets its name, kind,
 * status and state (`listed: 'running'`), and a session not otherwise known to run is running; a session
 * a list named and no longer does is over (`listed: 'gone'`, `agentAlive: false`): the agent said so,
 * nothing is guessed. A new object where anything changed.
 */
export function markListedSessions(groups: readonly GroupView[], listed: ListedSessions): GroupView[] {
  if (listed.running.size === 0 && listed.gone.size === 0) return [...groups];
  return groups.map((g) => {
    const session = g.session ? sessionAsListed(g.session, g.agent?.name ?? null, listed) : g.session;
    return session === g.session ? g : { ...g, session };
  });
}

/**
 * Pure: one session with what its agent's list says (as markListedSessions gives a group's): the same
 * object when no list names it. `agent`: the name of the agent the session was found under.
 */
export function sessionAsListed(
  session: SessionRef,
  agent: string | null,
  listed: ListedSessions,
): SessionRef {
  const on = listed.running.get(session.id);
  if (on && on.agent === agent) {
    const words = {
      ...(on.name ? { name: on.name } : {}),
      ...(on.kind ? { kind: on.kind } : {}),
      ...(on.status ? { status: on.status } : {}),
      ...(on.state ? { state: on.state } : {}),
    };
    return { ...session, listed: 'running', agentAlive: session.agentAlive ?? true, ...words };
  }
  const gone = listed.gone.get(session.id);
  if (gone && gone.agent === agent) return { ...session, listed: 'gone', agentAlive: false };
  return session;
}

/**
 * Pure: the recorded session ends (the hooks' SessionEnd) with the sessions the agents' lists say are gone
 * added, so that their leftovers are flagged `session-ended` as after a SessionEnd (an end is still held
 * while the session's agent process runs: analysis/session-ended.ts).
 */
export function withListedEnds(ended: EndedSessions, listed: ListedSessions): EndedSessions {
  if (listed.gone.size === 0) return ended;
  const all = new Map<string, EndedSession>(ended);
  for (const [sessionId, { agent, goneAt }] of listed.gone)
    if (!all.has(sessionId)) all.set(sessionId, { agent, sessionId, endedAt: goneAt });
  return all;
}
