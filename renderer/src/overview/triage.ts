import type { GroupView } from '../../../shared/model';

export { compareGroups, flagRank, groupRank, groupSeverity, type Severity } from '../../../shared/triage';

export interface AgentTotals {
  processes: number;
  cpuPercent: number;
  rssBytes: number;
  /** CPU-seconds used so far by processes the agent left behind (orphans) that are still alive. */
  leftoverCpuSeconds: number;
  orphans: number;
}

export function agentTotals(groups: readonly GroupView[]): AgentTotals {
  const totals: AgentTotals = { processes: 0, cpuPercent: 0, rssBytes: 0, leftoverCpuSeconds: 0, orphans: 0 };
  for (const group of groups) {
    totals.processes += group.processes.length;
    totals.cpuPercent += group.cpuPercent ?? 0;
    totals.rssBytes += group.rssBytes;
    for (const p of group.processes) {
      if (!p.flags.includes('orphan')) continue;
      totals.orphans++;
      totals.leftoverCpuSeconds += p.cpuSeconds ?? 0;
    }
  }
  return totals;
}
