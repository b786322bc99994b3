import type { GroupView, SessionRef } from '../../../shared/model';
import { groupPortNumbers, leftoverCommand, representative } from '../../../shared/words/provenance-text';
import { compareGroups } from '../overview/triage';
import type { GroupFilter } from './ui-slice';

/**
 * The groups of one agent session (`session` set), or, for groups no agent session is known for, of
 * one Unix session (`session` null, `sid` set) as before provenance existed.
 */
export interface SessionNode {
  /** `session:<id>` or `sid:<n>`. */
  key: string;
  session: SessionRef | null;
  /** The Unix session, for groups with no known agent session; null for an agent session. */
  sid: number | null;
  groups: GroupView[];
}

export interface AgentNode {
  /** Stable key: agent name and pid, or `unattributed`. */
  key: string;
  name: string | null;
  pid: number | null;
  /** The agent's own service it runs under (`pid` itself for the service's entry), where it has one. */
  servicePid?: number;
  sessions: SessionNode[];
}

export function matchesFilter(group: GroupView, filter: GroupFilter): boolean {
  if (filter === 'flagged') return group.flags.length > 0;
  if (filter === 'agents') return group.agent !== null;
  return true;
}

/** `3000` or `:3000`: a port number someone is looking for. */
const PORT_QUERY = /^:?(\d{1,5})$/;

/**
 * The search box: a command (any member's command line, the tool call's command or description), or a
 * port, written `3000` or `:3000`, that a member listens on.
 */
export function matchesSearch(group: GroupView, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (needle === '') return true;
  const port = PORT_QUERY.exec(needle);
  if (port && groupPortNumbers(group).includes(Number(port[1]))) return true;
  const texts = [
    ...group.processes.map((process) => process.command),
    group.toolCall?.command ?? '',
    group.toolCall?.description ?? '',
  ];
  return texts.some((text) => text.toLowerCase().includes(needle));
}

export function visibleGroups(
  groups: readonly GroupView[],
  filter: GroupFilter,
  search: string,
): GroupView[] {
  return groups.filter((group) => matchesFilter(group, filter) && matchesSearch(group, search));
}

export function agentKey(group: GroupView): string {
  return group.agent ? `${group.agent.name}:${group.agent.pid ?? '?'}` : 'unattributed';
}

/**
 * Agents, then their sessions (agent sessions where known, else Unix sessions), then groups, each in triage order (flagged first, then by CPU band, then oldest): the
 * agent and session holding the most urgent group come first; unattributed groups come last.
 */
export function groupTree(groups: readonly GroupView[]): AgentNode[] {
  const agents = new Map<string, AgentNode>();
  for (const group of groups) {
    const key = agentKey(group);
    let agent = agents.get(key);
    if (!agent) {
      agent = { key, name: group.agent?.name ?? null, pid: group.agent?.pid ?? null, sessions: [] };
      if (group.agent?.servicePid !== undefined) agent.servicePid = group.agent.servicePid;
      agents.set(key, agent);
    }
    const sessionKey = group.session ? `session:${group.session.id}` : `sid:${group.sid}`;
    let session = agent.sessions.find((s) => s.key === sessionKey);
    if (!session) {
      session = group.session
        ? { key: sessionKey, session: group.session, sid: null, groups: [] }
        : { key: sessionKey, session: null, sid: group.sid, groups: [] };
      agent.sessions.push(session);
    }
    session.groups.push(group);
  }
  const nodes = [...agents.values()];
  for (const node of nodes) {
    for (const session of node.sessions) session.groups.sort(compareGroups);
    node.sessions.sort((a, b) => compareGroups(a.groups[0]!, b.groups[0]!) || a.key.localeCompare(b.key));
  }
  return nodes.sort((a, b) => {
    if (a.name === null) return 1;
    if (b.name === null) return -1;
    return compareGroups(a.sessions[0]!.groups[0]!, b.sessions[0]!.groups[0]!) || a.key.localeCompare(b.key);
  });
}

/** The full command line of a group: the leader's, else the oldest member's. */
export function groupFullCommand(group: GroupView): string {
  return representative(group)?.command ?? '';
}

/** The command shown for a group: the tool call's, else the user's command inside the wrapper shell. */
export function groupCommand(group: GroupView): string {
  return leftoverCommand(group);
}

/** Every group of an agent session in the snapshot, whatever the filter shows. */
export function groupsOfSession(groups: readonly GroupView[], sessionId: string): GroupView[] {
  return groups.filter((g) => g.session?.id === sessionId);
}

/** What "stop everything this session left" stops: its groups except the one holding the agent. */
export function sessionLeftovers(groups: readonly GroupView[], sessionId: string): GroupView[] {
  return groupsOfSession(groups, sessionId).filter((g) => !g.containsAgent);
}
