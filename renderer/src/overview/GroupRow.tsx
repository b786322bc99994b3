import { memo } from 'react';
import type { GroupView } from '../../../shared/model';
import { FlagBadges } from '../shared-ui/FlagBadges';
import { formatBytes, formatDuration, formatPercent } from '../shared-ui/format';
import { ruleFromGroup } from '../policies/policy-journal';
import { groupCommand } from '../store/selectors';
import { useCorral } from '../store/store-context';

interface GroupRowProps {
  group: GroupView;
  now: number;
  selected: boolean;
  onSelect: (groupId: string) => void;
  onStop: (group: GroupView) => void;
}

export const GroupRow = memo(function GroupRow({ group, now, selected, onSelect, onStop }: GroupRowProps) {
  const command = groupCommand(group);
  const setRuleDraft = useCorral((s) => s.setRuleDraft);
  const setPage = useCorral((s) => s.setPage);
  return (
    <tr
      className={`group-row${selected ? ' selected' : ''}`}
      data-testid="group-row"
      data-group-id={group.id}
      aria-selected={selected}
      onClick={() => onSelect(group.id)}
    >
      <td className="num">
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
      </td>
      <td className="command" title={command}>
        <span className="command-text">{command}</span>
        <FlagBadges flags={group.flags} />
      </td>
      <td className="num">{group.processes.length}</td>
      <td className="num" data-testid="group-cpu">
        {formatPercent(group.cpuPercent)}
      </td>
      <td className="num" data-testid="group-memory">
        {formatBytes(group.rssBytes)}
      </td>
      <td className="num">{formatDuration(now - group.startedAt)}</td>
      <td className="actions">
        {group.flags.length > 0 ? (
          <button
            type="button"
            onClick={(event) => {
              event.stopPropagation();
              setRuleDraft(ruleFromGroup(group, []));
              setPage('settings');
            }}
          >
            Make this a rule…
          </button>
        ) : null}
        <button
          type="button"
          className="danger"
          onClick={(event) => {
            event.stopPropagation();
            onStop(group);
          }}
        >
          Stop group…
        </button>
      </td>
    </tr>
  );
});
