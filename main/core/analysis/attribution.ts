import { identityKey } from '../model/identity';
import type { ProcessRecord } from '../model/process-record';
import type { AgentMatcher } from './agent-matcher';
import { isForkCopy } from './fork-copy';
import type { LineageMemory } from './lineage-memory';

export type AttributionSource = 'agent' | 'lineage' | 'ancestry' | 'env' | 'command' | 'group' | 'session';

export interface Attribution {
  agent: string;
  agentPid: number | null;
  source: AttributionSource;
  /** This process is the agent itself (main process, relaunch or daemon). */
  isAgent: boolean;
}

/**
 * Ties each process to the agent it came from, strongest evidence first: being an agent; Corral's own
 * memory of its lineage; a live ancestor that is an agent; the agent's environment markers; an agent's
 * tool-call command line; and last, sharing a process group or a tool call's session with an
 * attributed process.
 */
export function attribute(
  records: readonly ProcessRecord[],
  matcher: AgentMatcher,
  memory?: LineageMemory,
): Map<number, Attribution> {
  const byPid = new Map<number, ProcessRecord>();
  for (const r of records) byPid.set(r.pid, r);
  const result = new Map<number, Attribution | null>();
  const visiting = new Set<number>();

  const resolve = (r: ProcessRecord): Attribution | null => {
    const known = result.get(r.pid);
    if (known !== undefined) return known;
    if (visiting.has(r.pid)) return null; // a ppid cycle can only come from a torn read; stop there
    visiting.add(r.pid);
    const found = direct(r) ?? fromParent(r) ?? indirect(r);
    visiting.delete(r.pid);
    result.set(r.pid, found);
    return found;
  };

  const direct = (r: ProcessRecord): Attribution | null => {
    const agent = matcher.agentOf(r);
    if (agent) return forkOfAgent(r) ?? { agent, agentPid: r.pid, source: 'agent', isAgent: true };
    const remembered = memory?.byIdentity.get(identityKey(r.pid, r.startKey));
    if (remembered)
      return { agent: remembered.agent, agentPid: remembered.agentPid, source: 'lineage', isAgent: false };
    return null;
  };

  /**
   * An agent's child read between its fork and its exec (a tool call's shell, still the agent's copy) is
   * that agent's, never an agent of its own: its group is the agent's tool call from first sight.
   */
  const forkOfAgent = (r: ProcessRecord): Attribution | null => {
    const parent = byPid.get(r.ppid);
    if (!parent || !isForkCopy(r, parent)) return null;
    const p = resolve(parent);
    return p?.isAgent ? { agent: p.agent, agentPid: p.agentPid, source: 'ancestry', isAgent: false } : null;
  };

  const fromParent = (r: ProcessRecord): Attribution | null => {
    if (r.ppid <= 1 || r.ppid === r.pid) return null;
    const parent = byPid.get(r.ppid);
    if (!parent || parent.startKey > r.startKey) return null; // a "parent" younger than its child is a reused pid
    const p = resolve(parent);
    return p ? { agent: p.agent, agentPid: p.agentPid, source: 'ancestry', isAgent: false } : null;
  };

  const indirect = (r: ProcessRecord): Attribution | null => {
    const marked = matcher.markersOf(r.markers);
    if (marked) return { agent: marked.agent, agentPid: marked.agentPid, source: 'env', isAgent: false };
    const toolCall = matcher.toolCallOf(r.argv);
    if (toolCall) return { agent: toolCall, agentPid: null, source: 'command', isAgent: false };
    return null;
  };

  for (const r of records) resolve(r);

  // Group and session propagation: a member of an agent's tool-call group or session belongs to it.
  const groupAgents = new Map<number, Attribution>();
  const sessionAgents = new Map<number, Attribution>();
  for (const r of records) {
    const a = result.get(r.pid);
    if (!a || a.isAgent) continue;
    // A member older than the process now holding its PGID was read before that number was reused (or
    // joined late): it vouches for nobody there.
    const leader = byPid.get(r.pgid);
    if (leader && leader.startKey > r.startKey) continue;
    if (!groupAgents.has(r.pgid)) groupAgents.set(r.pgid, a);
    // A session counts only when its leader is the agent's (a tool call's), never the terminal's.
    if (r.pid === r.sid && !sessionAgents.has(r.sid)) sessionAgents.set(r.sid, a);
  }
  for (const r of records) {
    if (result.get(r.pid)) continue;
    const viaGroup = groupAgents.get(r.pgid) ?? memory?.groupAgent(r.pgid, byPid.get(r.pgid));
    const viaSession = sessionAgents.get(r.sid) ?? memory?.sessionAgent(r.sid, byPid.get(r.sid));
    if (viaGroup)
      result.set(r.pid, {
        agent: viaGroup.agent,
        agentPid: viaGroup.agentPid,
        source: 'group',
        isAgent: false,
      });
    else if (viaSession)
      result.set(r.pid, {
        agent: viaSession.agent,
        agentPid: viaSession.agentPid,
        source: 'session',
        isAgent: false,
      });
  }

  const out = new Map<number, Attribution>();
  for (const [pid, a] of result) if (a) out.set(pid, a);
  return out;
}
