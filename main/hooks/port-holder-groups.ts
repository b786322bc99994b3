import { commandThatMatters } from '../../shared/words/command-summary';
import { chooseAnchor, formatGroupId } from '../core/analysis/group-id';
import { commandOf } from '../core/analysis/grouping';
import { AGENT_PID_MARKERS, HOOK_AGENT_SPECS } from '../core/hooks-setup/hook-agents';
import type { PortListener } from '../core/sampling/hook-sampler';
import type { ProcessRecord } from '../core/model/process-record';
import type { EndedSessions } from '../core/analysis/session-ended';
import type { PortHolderGroup } from './port-conflict-note';

/** Pure: the agent session a process's environment markers name, or null when no agent's. */
export function sessionOfMarkers(
  markers: Readonly<Record<string, string>>,
): { agent: string; id: string | null } | null {
  for (const spec of Object.values(HOOK_AGENT_SPECS)) {
    for (const key of spec.sessionMarkers) {
      const id = markers[key];
      if (id) return { agent: spec.label, id };
    }
  }
  for (const spec of Object.values(HOOK_AGENT_SPECS)) {
    if (spec.agentMarkers.some((key) => markers[key] !== undefined)) return { agent: spec.label, id: null };
  }
  return null;
}

/** Pure: whether the agent a process's markers name by pid (CLAUDE_PID…) still runs, started before it. */
export function namedAgentAlive(
  process: Pick<ProcessRecord, 'markers' | 'startedAt'>,
  byPid: ReadonlyMap<number, Pick<ProcessRecord, 'startedAt' | 'state'>>,
): boolean {
  return AGENT_PID_MARKERS.some((key) => {
    const agent = byPid.get(Number(process.markers[key]));
    return agent !== undefined && agent.state !== 'Z' && agent.startedAt <= process.startedAt + 1000;
  });
}

/**
 * Pure but for `cwdOf`: the process groups holding the listeners, from a read of the whole table
 * (`records`, so each group id is computed over all its live members as `corral ps` does). A group's
 * session is read from its listener's markers; `ended` are the sessions hooks recorded as ended.
 */
export function portHolderGroups(
  listeners: ReadonlyMap<number, PortListener>,
  records: readonly ProcessRecord[],
  ended: EndedSessions,
  cwdOf: (pid: number) => string | null,
): PortHolderGroup[] {
  const byPid = new Map(records.map((r) => [r.pid, r]));
  const listenerOfPgid = new Map<number, ProcessRecord>();
  for (const l of listeners.values()) {
    for (const pid of l.pids) {
      const r = byPid.get(pid);
      if (r && !listenerOfPgid.has(r.pgid)) listenerOfPgid.set(r.pgid, r);
    }
  }
  return [...listenerOfPgid].map(([pgid, listener]) => {
    const members = records.filter((r) => r.pgid === pgid && r.state !== 'Z');
    const anchor = chooseAnchor(pgid, members);
    const leader = members.find((r) => r.pid === pgid);
    const marked = sessionOfMarkers(listener.markers);
    const cwd = marked ? cwdOf(listener.pid) : null;
    // A recorded end is a message; while the agent the listener names (CLAUDE_PID…) runs, it is not believed.
    const end = marked?.id && !namedAgentAlive(listener, byPid) ? ended.get(marked.id) : undefined;
    return {
      pgid,
      groupId: formatGroupId({ pgid, anchorPid: anchor.pid, anchorStartKey: anchor.startKey }),
      pids: members.map((r) => r.pid),
      command: commandThatMatters(commandOf(leader ?? listener)),
      startedAt: Math.min(...members.map((r) => r.startedAt)),
      session: marked && {
        ...marked,
        // The hook reads no `.git` (provenance's job): the working directory stands for the project.
        project: cwd,
        // A resumed session reuses its id: an end recorded before this group began is not its end.
        endedAt: end && end.endedAt + 1000 >= listener.startedAt ? end.endedAt : null,
      },
    };
  });
}
