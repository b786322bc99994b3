import type { MonitorState } from './monitor-state';

/*
 * What the pid watch asks of the agents' live processes between polls: whom to read when new pids come,
 * whose child lists to read, and whose exits to follow.
 */

/** pids of the live processes taken for agents themselves (main processes, relaunches, daemons). */
export function agentsOwnPids(state: MonitorState): number[] {
  const pids: number[] = [];
  for (const p of state.liveAgentProcs()) if (p.attribution?.isAgent) pids.push(p.record.pid);
  return pids;
}

/** Agents' live processes by parent pid. */
export function agentChildrenByParent(state: MonitorState): Map<number, number[]> {
  const byParent = new Map<number, number[]>();
  for (const p of state.liveAgentProcs()) {
    const list = byParent.get(p.record.ppid);
    if (list) list.push(p.record.pid);
    else byParent.set(p.record.ppid, [p.record.pid]);
  }
  return byParent;
}

/** Agents' processes that lead their session or group, and agents' processes' live parents. */
export function agentWatchedParents(state: MonitorState): Set<number> {
  const watched = new Set<number>();
  for (const p of state.liveAgentProcs()) {
    if (!p.attribution || p.exitedAt !== null) continue;
    const r = p.record;
    if (p.attribution.isAgent || r.pid === r.sid || r.pid === r.pgid) watched.add(r.pid);
    if (r.ppid > 1) {
      const parent = state.procs.get(r.ppid);
      if (parent && parent.exitedAt === null) watched.add(r.ppid);
    }
  }
  return watched;
}
