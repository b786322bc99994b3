/** What is known about one process for linking sessions to their agents. */
export interface SessionLinkFacts {
  pid: number;
  /** The session id in its environment, or the one its agent's session file names. */
  sessionId: string | null;
  isAgent: boolean;
  /** The agent pid its attribution names (an environment pid variable, or its live ancestry). */
  agentPid: number | null;
}

/**
 * Session id → the live agent process running it. A process that is the agent and names a session
 * (OpenCode's own pid variable, Claude Code's session file) links directly; a tool call's process
 * links its session to the agent its attribution names, when that agent is alive. The first live
 * agent found wins; a session whose agent is gone has no entry.
 */
export function linkSessionsToAgents(facts: readonly SessionLinkFacts[]): Map<string, number> {
  const agents = new Set(facts.filter((f) => f.isAgent).map((f) => f.pid));
  const links = new Map<string, number>();
  for (const f of facts) {
    if (f.isAgent && f.sessionId !== null && !links.has(f.sessionId)) links.set(f.sessionId, f.pid);
  }
  for (const f of facts) {
    if (f.isAgent || f.sessionId === null || links.has(f.sessionId)) continue;
    if (f.agentPid !== null && agents.has(f.agentPid)) links.set(f.sessionId, f.agentPid);
  }
  return links;
}
