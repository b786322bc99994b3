import { commandThatMatters } from '../../../shared/command-summary';
import type { GroupView } from '../../../shared/model';
import { compareGroups } from '../overview/triage';
import type { GroupFilter } from './ui-slice';

export interface SessionNode {
  sid: number;
  groups: GroupView[];
}

export interface AgentNode {
  /** Stable key: agent name and pid, or `unattributed`. */
  key: string;
  name: string | null;
  pid: number | null;
  sessions: SessionNode[];
}

export function matchesFilter(group: GroupView, filter: GroupFilter): boolean {
  if (filter === 'flagged') return group.flags.length > 0;
  if (filter === 'agents') return group.agent !== null;
  return true;
}

export function matchesSearch(group: GroupView, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (needle === '') return true;
  return group.processes.some((process) => process.command.toLowerCase().includes(needle));
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
 * Agents, then their sessions, then groups, each in triage order (flagged first, then by CPU): the
 * agent and session holding the most urgent group come first; unattributed groups come last.
 */
export function groupTree(groups: readonly GroupView[]): AgentNode[] {
  const agents = new Map<string, AgentNode>();
  for (const group of groups) {
    const key = agentKey(group);
    let agent = agents.get(key);
    if (!agent) {
      agent = { key, name: group.agent?.name ?? null, pid: group.agent?.pid ?? null, sessions: [] };
      agents.set(key, agent);
    }
    let session = agent.sessions.find((s) => s.sid === group.sid);
    if (!session) {
      session = { sid: group.sid, groups: [] };
      agent.sessions.push(session);
    }
    session.groups.push(group);
  }
  const nodes = [...agents.values()];
  for (const node of nodes) {
    for (const session of node.sessions) session.groups.sort(compareGroups);
    node.sessions.sort((a, b) => compareGroups(a.groups[0]!, b.groups[0]!) || a.sid - b.sid);
  }
  return nodes.sort((a, b) => {
    if (a.name === null) return 1;
    if (b.name === null) return -1;
    return compareGroups(a.sessions[0]!.groups[0]!, b.sessions[0]!.groups[0]!) || a.key.localeCompare(b.key);
  });
}

/** The full command line of a group: the leader's, else the oldest member's. */
export function groupFullCommand(group: GroupView): string {
  const leader = group.processes.find((p) => p.pid === group.leaderPid);
  if (leader) return leader.command;
  const oldest = [...group.processes].sort((a, b) => a.startedAt - b.startedAt)[0];
  return oldest?.command ?? '';
}

/** The command shown for a group: the user's command inside an agent's wrapper shell. */
export function groupCommand(group: GroupView): string {
  return commandThatMatters(groupFullCommand(group));
}
