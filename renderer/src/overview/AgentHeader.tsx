import type { GroupView } from '../../../shared/model';
import { formatBytes, formatCpuSeconds } from '../shared-ui/format';
import { agentKey, type AgentNode } from '../store/selectors';
import { agentTotals } from './triage';

interface AgentHeaderProps {
  agent: AgentNode;
  /** Every group in the snapshot: totals count the agent's groups whatever the filter shows. */
  allGroups: readonly GroupView[];
  columns: number;
  compact: boolean;
  onStopAgentOrphans: (agentName: string, groups: GroupView[]) => void;
}

/** The agent's row: who it is, what all its groups cost now, and "stop all its orphans". */
export function AgentHeader({ agent, allGroups, columns, compact, onStopAgentOrphans }: AgentHeaderProps) {
  const mine = allGroups.filter((g) => agentKey(g) === agent.key);
  const totals = agentTotals(mine);
  const name = agent.name ?? 'No agent';
  return (
    <tr className="agent-row">
      <th scope="rowgroup" colSpan={columns}>
        <div className="agent-line">
          <span className="agent-name">
            {name}
            {agent.servicePid !== undefined && agent.servicePid === agent.pid ? ' service' : null}
            {agent.pid !== null ? <span className="muted"> pid {agent.pid}</span> : null}
            {agent.servicePid !== undefined && agent.servicePid !== agent.pid ? (
              <span className="muted"> · service pid {agent.servicePid}</span>
            ) : null}
          </span>
          {agent.name !== null ? (
            <span className="agent-totals muted" data-testid="agent-totals">
              {totals.processes} proc{totals.processes === 1 ? '' : 's'} · CPU {totals.cpuPercent.toFixed(0)}%
              · {formatBytes(totals.rssBytes)}
              {totals.orphans > 0 ? (
                <span title="CPU time used so far by the processes this agent left behind that are still running">
                  {' '}
                  · leftovers burned {formatCpuSeconds(totals.leftoverCpuSeconds)} CPU
                </span>
              ) : null}
            </span>
          ) : null}
          {agent.name !== null && totals.orphans > 0 ? (
            <button
              type="button"
              className="danger agent-stop"
              aria-label={`Stop all ${totals.orphans} orphan${totals.orphans === 1 ? '' : 's'} of ${name}…`}
              onClick={() =>
                onStopAgentOrphans(
                  name,
                  mine.filter((g) => g.processes.some((p) => p.flags.includes('orphan'))),
                )
              }
            >
              {compact ? 'Stop orphans…' : 'Stop all orphans of this agent…'}
            </button>
          ) : null}
        </div>
      </th>
    </tr>
  );
}
