import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { GroupView, SessionRef } from '../../../shared/model';
import { useCorral } from '../store/store-context';
import { agentKey, groupTree, visibleGroups } from '../store/selectors';
import { GroupRow } from './GroupRow';
import { AgentHeader } from './AgentHeader';
import { SessionHeader } from './SessionHeader';

const NO_GROUPS: GroupView[] = [];

interface GroupTableProps {
  compact: boolean;
  onStop: (group: GroupView) => void;
  onStopAgentOrphans: (agentName: string, groups: GroupView[]) => void;
  onStopSession: (session: SessionRef, leftovers: GroupView[]) => void;
}

export function allClearMessage(groups: readonly GroupView[]): string {
  const agents = new Set(groups.flatMap((g) => (g.agent ? [agentKey(g)] : []))).size;
  const running = agents === 0 ? 'no agents running' : `${agents} agent${agents === 1 ? '' : 's'} running`;
  return `All clear — ${running}, nothing left behind.`;
}

export function GroupTable({ compact, onStop, onStopAgentOrphans, onStopSession }: GroupTableProps) {
  const known = useCorral((s) => s.snapshot !== null);
  const groups = useCorral((s) => s.snapshot?.groups ?? NO_GROUPS);
  const { filter, search } = useCorral(useShallow((s) => ({ filter: s.filter, search: s.search })));
  const selectedGroupId = useCorral((s) => s.selectedGroupId);
  const selectGroup = useCorral((s) => s.selectGroup);
  const tree = useMemo(() => groupTree(visibleGroups(groups, filter, search)), [groups, filter, search]);
  const columns = compact ? 3 : 7;

  // No snapshot yet (or none could be fetched) is not knowing, never "all clear".
  if (!known)
    return (
      <p className="empty" data-testid="no-snapshot">
        Waiting for the first look at the processes…
      </p>
    );
  if (tree.length === 0) {
    const clear = search.trim() === '' && !groups.some((g) => g.flags.length > 0);
    return (
      <p className={`empty${clear ? ' all-clear' : ''}`} data-testid="no-groups">
        {clear ? allClearMessage(groups) : 'No group matches this filter.'}
      </p>
    );
  }

  return (
    <table className={`groups${compact ? ' compact' : ''}`} aria-label="Process groups">
      <thead>
        <tr>
          {compact ? null : <th scope="col">PGID</th>}
          <th scope="col">Command and flags</th>
          {compact ? null : (
            <th scope="col" className="num">
              Procs
            </th>
          )}
          <th scope="col" className="num">
            CPU
          </th>
          {compact ? null : (
            <>
              <th scope="col" className="num">
                Memory
              </th>
              <th scope="col" className="num">
                Age
              </th>
            </>
          )}
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      {tree.map((agent) => (
        <tbody key={agent.key} data-testid="agent" data-agent={agent.name ?? 'none'}>
          <AgentHeader
            agent={agent}
            allGroups={groups}
            columns={columns}
            compact={compact}
            onStopAgentOrphans={onStopAgentOrphans}
          />
          {agent.sessions.map((session) => [
            session.session ? (
              <SessionHeader
                key={session.key}
                session={session.session}
                allGroups={groups}
                columns={columns}
                compact={compact}
                onStopSession={onStopSession}
              />
            ) : (
              <tr key={session.key} className="session-row" data-testid="session" data-sid={session.sid}>
                {/* No agent session is known: the kernel's session number only in the tooltip (the glossary's "Unix session"). */}
                <td colSpan={columns} title={`Unix session ${session.sid}`}>
                  no agent session known
                </td>
              </tr>
            ),
            ...session.groups.map((group) => (
              <GroupRow
                key={group.id}
                group={group}
                selected={group.id === selectedGroupId}
                compact={compact}
                onSelect={selectGroup}
                onStop={onStop}
              />
            )),
          ])}
        </tbody>
      ))}
    </table>
  );
}
