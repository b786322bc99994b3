import { visibleText } from '../../../shared/words/visible-text';
import { BACKGROUND_TASK_LABEL, isLiveBackgroundTask } from '../../../shared/background-task';
import { spawnStormNow } from '../../../shared/words/spawn-storm-words';
import { memo } from 'react';
import type { GroupView } from '../../../shared/model';
import { FlagBadges } from '../shared-ui/FlagBadges';
import { Age } from '../shared-ui/Age';
import { formatBytes, formatPercent } from '../shared-ui/format';
import { ruleFromGroup } from '../policies/policy-journal';
import { groupCommand, groupFullCommand } from '../store/selectors';
import { useCorral } from '../store/store-context';
import { groupSeverity } from './triage';
import { LeftoverContext } from './LeftoverContext';
import { KeepButton } from './KeepButton';
import { StopButton } from './StopButton';

interface GroupRowProps {
  group: GroupView;
  selected: boolean;
  /** Narrow layout (the menu-bar popover): fewer columns, two-line rows. */
  compact: boolean;
  onSelect: (groupId: string) => void;
  onStop: (group: GroupView) => void;
}

export const GroupRow = memo(function GroupRow({
  group,
  selected,
  compact,
  onSelect,
  onStop,
}: GroupRowProps) {
  const command = groupCommand(group);
  const full = groupFullCommand(group);
  const severity = groupSeverity(group);
  const backgroundTask = isLiveBackgroundTask(group);
  // macOS hides the environment of SIP-protected binaries: attribution then rests on lineage.
  const envHidden = group.agent !== null && group.processes.some((p) => p.environReadable === false);
  const memoryUnknown = group.processes.some((p) => p.rssBytes === null);
  const setRuleDraft = useCorral((s) => s.setRuleDraft);
  const setPage = useCorral((s) => s.setPage);
  const memory = (
    <span
      data-testid="group-memory"
      title={memoryUnknown ? 'Some members’ memory is unknown (another user’s processes)' : undefined}
    >
      {formatBytes(group.rssBytes)}
      {memoryUnknown ? ' + ?' : ''}
    </span>
  );
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
    <td className="command" title={visibleText(full)}>
      {group.toolCall?.description ? (
        <span className="tool-description" data-testid="tool-description">
          {visibleText(group.toolCall.description)}
        </span>
      ) : null}
      <span className="command-text">{visibleText(command)}</span>
      <LeftoverContext group={group} />
      {group.spawnStorm ? (
        <span className="spawn-storm-words" data-testid="spawn-storm-words">
          {visibleText(spawnStormNow(group.spawnStorm))}
        </span>
      ) : null}
      {compact ? (
        <span className="row-meta muted">
          pgid {timelineButton} · {group.processes.length} proc{group.processes.length === 1 ? '' : 's'} ·{' '}
          {memory} · <Age since={group.startedAt} />
        </span>
      ) : null}
      {backgroundTask ? (
        <span
          className="kept-badge background-task-badge"
          data-testid="background-task-badge"
          title="The agent started it in the background on purpose, and its session is running: not a leftover until the session ends"
        >
          {BACKGROUND_TASK_LABEL}
        </span>
      ) : null}
      <FlagBadges flags={group.flags} group={group} />
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
  );
  return (
    <tr
      className={`group-row severity-${severity}${selected ? ' selected' : ''}${group.kept ? ' kept' : ''}${backgroundTask ? ' background-task' : ''}`}
      data-testid="group-row"
      data-group-id={group.id}
      data-kept={group.kept ? 'true' : undefined}
      data-background-task={backgroundTask ? 'true' : undefined}
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
          <td className="num">{memory}</td>
          <td className="num">
            <Age since={group.startedAt} />
          </td>
        </>
      )}
      <td className="actions">
        {group.flags.length > 0 && !compact ? (
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
        <KeepButton group={group} compact={compact} />
        <StopButton group={group} compact={compact} onStop={onStop} />
      </td>
    </tr>
  );
});
