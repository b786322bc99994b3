import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { GroupView } from '../../../shared/model';
import { useCorral } from '../store/store-context';
import { groupTree, visibleGroups } from '../store/selectors';
import { GroupRow } from './GroupRow';

const COLUMNS = 7;
const NO_GROUPS: GroupView[] = [];

export function GroupTable({ onStop }: { onStop: (group: GroupView) => void }) {
  const groups = useCorral((s) => s.snapshot?.groups ?? NO_GROUPS);
  const now = useCorral((s) => s.snapshot?.sampledAt ?? 0);
  const { filter, search } = useCorral(useShallow((s) => ({ filter: s.filter, search: s.search })));
  const selectedGroupId = useCorral((s) => s.selectedGroupId);
  const selectGroup = useCorral((s) => s.selectGroup);
  const tree = useMemo(() => groupTree(visibleGroups(groups, filter, search)), [groups, filter, search]);

  if (tree.length === 0) {
    return (
      <p className="empty" data-testid="no-groups">
        {groups.length === 0 ? 'No process groups yet.' : 'No group matches this filter.'}
      </p>
    );
  }

  return (
    <table className="groups" aria-label="Process groups">
      <thead>
        <tr>
          <th scope="col">PGID</th>
          <th scope="col">Command and flags</th>
          <th scope="col">Procs</th>
          <th scope="col">CPU</th>
          <th scope="col">Memory</th>
          <th scope="col">Age</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      {tree.map((agent) => (
        <tbody key={agent.key} data-testid="agent" data-agent={agent.name ?? 'none'}>
          <tr className="agent-row">
            <th scope="rowgroup" colSpan={COLUMNS}>
              {agent.name ?? 'No agent'}
              {agent.pid !== null ? <span className="muted"> pid {agent.pid}</span> : null}
            </th>
          </tr>
          {agent.sessions.map((session) => [
            <tr key={`s${session.sid}`} className="session-row" data-testid="session" data-sid={session.sid}>
              <td colSpan={COLUMNS}>session {session.sid}</td>
            </tr>,
            ...session.groups.map((group) => (
              <GroupRow
                key={group.id}
                group={group}
                now={now}
                selected={group.id === selectedGroupId}
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
