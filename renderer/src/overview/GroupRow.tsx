import { memo } from 'react';
import type { GroupView } from '../../../shared/model';
import { FlagBadges } from '../shared-ui/FlagBadges';
import { formatBytes, formatDuration, formatPercent } from '../shared-ui/format';
import { groupCommand, groupFullCommand } from '../store/selectors';
import { groupSeverity } from './triage';
import { StopButton } from './StopButton';

interface GroupRowProps {
  group: GroupView;
  now: number;
  selected: boolean;
  /** Narrow layout (the menu-bar popover): fewer columns, two-line rows. */
  compact: boolean;
  onSelect: (groupId: string) => void;
  onStop: (group: GroupView) => void;
}

export const GroupRow = memo(function GroupRow({
  group,
  now,
  selected,
  compact,
  onSelect,
  onStop,
}: GroupRowProps) {
  const command = groupCommand(group);
  const full = groupFullCommand(group);
  const severity = groupSeverity(group);
  const timelineButton = (
    <button
      type="button"
      className="link"
      aria-label={`Show timeline of group ${group.pgid}`}
      onClick={(event) => {
        event.stopPropagation();
        onSelect(group.id);
      }}
    >
      {group.pgid}
    </button>
  );
  const commandCell = (
    <td className="command" title={full}>
      <span className="command-text">{command}</span>
      {compact ? (
        <span className="row-meta muted">
          pgid {timelineButton} · {group.processes.length} proc{group.processes.length === 1 ? '' : 's'} ·{' '}
          <span data-testid="group-memory">{formatBytes(group.rssBytes)}</span> ·{' '}
          {formatDuration(now - group.startedAt)}
        </span>
      ) : null}
      <FlagBadges flags={group.flags} group={group} />
    </td>
  );
  return (
    <tr
      className={`group-row severity-${severity}${selected ? ' selected' : ''}`}
      data-testid="group-row"
      data-group-id={group.id}
      data-severity={severity}
      aria-selected={selected}
      onClick={() => onSelect(group.id)}
    >
      {compact ? null : <td className="num">{timelineButton}</td>}
      {commandCell}
      {compact ? null : <td className="num">{group.processes.length}</td>}
      <td className="num cpu" data-testid="group-cpu">
        {formatPercent(group.cpuPercent)}
      </td>
      {compact ? null : (
        <>
          <td className="num" data-testid="group-memory">
            {formatBytes(group.rssBytes)}
          </td>
          <td className="num">{formatDuration(now - group.startedAt)}</td>
        </>
      )}
      <td className="actions">
        <StopButton group={group} compact={compact} onStop={onStop} />
      </td>
    </tr>
  );
});
