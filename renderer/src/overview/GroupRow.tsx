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
  // macOS hides the environment of SIP-protected binaries: attribution then rests on lineage.
  const envHidden = group.agent !== null && group.processes.some((p) => p.environReadable === false);
  const memoryUnknown = group.processes.some((p) => p.rssBytes === null);
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
        {envHidden ? (
          <span
            className="muted env-hidden"
            data-testid="env-hidden"
            title="The kernel did not show this group's environment (a SIP-protected binary or another user's process): it is attributed by lineage and command line, not by environment markers."
          >
            {' '}
            env hidden
          </span>
        ) : null}
      </td>
      <td className="num">{group.processes.length}</td>
      <td className="num" data-testid="group-cpu">
        {formatPercent(group.cpuPercent)}
      </td>
      <td
        className="num"
        data-testid="group-memory"
        title={memoryUnknown ? 'Some members’ memory is unknown (another user’s processes)' : undefined}
      >
        {formatBytes(group.rssBytes)}
        {memoryUnknown ? ' + ?' : ''}
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
