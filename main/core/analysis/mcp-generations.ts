import type { GroupView, ProcessView } from '../../../shared/model';

/**
 * Pure: an MCP server left from an earlier generation of its agent (claude-code#1935: "a whole old
 * generation of them after each restart"): an orphaned process in role `mcp-server` while a newer process
 * of the same agent and user runs the same server under a live agent. The orphan flag is the kernel's
 * fact (reparented, its agent gone); this adds the evidence, in `serviceLeftover`, that the agent has
 * replaced it. A new object where anything changed.
 */
export function markMcpGenerations(groups: readonly GroupView[]): GroupView[] {
  const current = new Map<string, { proc: ProcessView; agentPid: number | null }>();
  let stale = false;
  for (const g of groups) {
    for (const p of g.processes) {
      const key = serverKey(g, p);
      if (!key || p.state === 'Z') continue;
      if (g.flags.includes('orphan')) stale = true;
      else {
        const seen = current.get(key);
        if (!seen || p.startKey > seen.proc.startKey) current.set(key, { proc: p, agentPid: g.agent!.pid });
      }
    }
  }
  if (!stale || current.size === 0) return [...groups];
  return groups.map((g) => {
    if (!g.flags.includes('orphan')) return g;
    let changed = false;
    const processes = g.processes.map((p) => {
      const key = serverKey(g, p);
      const newer = key ? current.get(key) : undefined;
      if (!newer || p.serviceLeftover || newer.proc.startKey <= p.startKey) return p;
      changed = true;
      const of = newer.agentPid !== null ? ` for ${g.agent!.name} (pid ${newer.agentPid})` : '';
      return {
        ...p,
        serviceLeftover: `an older generation of MCP server ${p.mcpServer}: pid ${newer.proc.pid} runs it now${of}`,
      };
    });
    return changed ? { ...g, processes } : g;
  });
}

/** The server a process runs for its agent and user, or null when it is no named MCP server. */
function serverKey(g: GroupView, p: ProcessView): string | null {
  return g.agent && p.role === 'mcp-server' && p.mcpServer
    ? `${g.agent.name}\0${p.uid}\0${p.mcpServer}`
    : null;
}
