// How a leftover's provenance reads, the same in the overview and in notifications: the project's
// name, a short session id, the command the agent ran, its ports.
import { commandThatMatters } from './command-summary';
import type { GroupView, ListeningPort, ProcessView, SessionRef } from '../model';

/** The last path component of a project root (`/home/me/shop` → `shop`); null when unknown. */
export function projectName(project: string | null | undefined): string | null {
  if (!project) return null;
  const parts = project.split('/').filter((p) => p !== '');
  return parts.length > 0 ? parts[parts.length - 1]! : project;
}

/**
 * A session id as short as it can be told from the other sessions shown (`among`): its shortest prefix
 * of 8 characters or more (what `corral kill --session` accepts) that none of them starts with. Codex's
 * ids begin with a timestamp (UUIDv7), so two sessions begun within about a minute share their first 8.
 */
export function shortSessionId(id: string, among: Iterable<string> = []): string {
  let shared = 0;
  for (const other of among) {
    if (other === id) continue;
    let n = 0;
    while (n < id.length && id[n] === other[n]) n++;
    shared = Math.max(shared, n);
  }
  return id.slice(0, Math.max(8, shared + 1));
}

/** The session ids of these groups, each once: what shortSessionId tells a session from. */
export function sessionIdsOf(groups: readonly Pick<GroupView, 'session'>[]): Set<string> {
  return new Set(groups.flatMap((g) => (g.session ? [g.session.id] : [])));
}

/**
 * What the agent's own session list says of a session, in words: `"Fix the tests" (busy, working)`; `ended
 * (the agent's list)` once the list no longer names it; null when no list named it.
 */
export function listedSessionWords(
  session: Pick<SessionRef, 'listed' | 'name' | 'status' | 'state'>,
): string | null {
  if (session.listed === 'gone') return "ended (the agent's list)";
  if (session.listed !== 'running') return null;
  const how = [session.status, session.state].filter((w) => w).join(', ');
  const name = session.name ? `"${session.name}"` : '';
  return [name, how ? `(${how})` : ''].filter((w) => w).join(' ') || null;
}

/** Whether a session's agent runs, in words (SessionRef.agentAlive: true, false, or not known). */
export function sessionAgentWords(
  agentAlive: boolean | null,
): 'agent alive' | 'agent exited' | 'agent not known' {
  if (agentAlive === null) return 'agent not known';
  return agentAlive ? 'agent alive' : 'agent exited';
}

/** The group's listening ports, across members and protocols, each once, lowest first. */
export function groupPortNumbers(group: Pick<GroupView, 'ports' | 'processes'>): number[] {
  const all: ListeningPort[] = group.ports ?? group.processes.flatMap((p) => p.ports ?? []);
  return [...new Set(all.map((l) => l.port))].sort((a, b) => a - b);
}

/** `:3000`, `:3000, :5173`; empty when nothing listens. */
export function portsText(ports: readonly number[]): string {
  return ports.map((p) => `:${p}`).join(', ');
}

/** The process that speaks for a group: its leader while alive, else the oldest member. */
export function representative(group: Pick<GroupView, 'processes' | 'leaderPid'>): ProcessView | undefined {
  return (
    group.processes.find((p) => p.pid === group.leaderPid) ??
    [...group.processes].sort((a, b) => a.startedAt - b.startedAt)[0]
  );
}

/**
 * The command a person recognises for a leftover: the tool call's command where the agent's transcript
 * gave it, else the command inside the wrapper shell of its leader (or oldest member).
 */
export function leftoverCommand(group: Pick<GroupView, 'processes' | 'leaderPid' | 'toolCall'>): string {
  if (group.toolCall?.command) return commandThatMatters(group.toolCall.command);
  return commandThatMatters(representative(group)?.command ?? '');
}

/**
 * A working directory as seen from its project: `web/app` inside it, `project root` at its root (a lone
 * `.` tells a newcomer nothing), the path itself outside it (or when the project is unknown).
 */
export function cwdInProject(cwd: string, project: string | null | undefined): string {
  if (!project) return cwd;
  const root = project.endsWith('/') ? project.slice(0, -1) : project;
  if (cwd === root) return 'project root';
  if (cwd.startsWith(`${root}/`)) return cwd.slice(root.length + 1);
  return cwd;
}
