import type { GroupView } from '../../../shared/model';

interface StopButtonProps {
  group: GroupView;
  compact: boolean;
  onStop: (group: GroupView) => void;
}

/**
 * What can be done to a group. The agent's own group may only lose its orphans, so it offers
 * "Stop orphans…" when it has some and nothing when it has none (no dialog with nothing to stop).
 */
export function StopButton({ group, compact, onStop }: StopButtonProps) {
  const orphans = group.processes.filter((p) => p.flags.includes('orphan')).length;
  if (group.containsAgent && orphans === 0) {
    return (
      <span
        className="muted agent-note"
        title="This group holds the agent itself; Corral does not stop agents."
      >
        agent
      </span>
    );
  }
  const orphansOnly = group.containsAgent;
  const label = orphansOnly
    ? `Stop ${orphans} orphan${orphans === 1 ? '' : 's'} of group ${group.pgid}…`
    : `Stop group ${group.pgid}…`;
  return (
    <button
      type="button"
      className="danger"
      aria-label={label}
      title={label}
      onClick={(event) => {
        event.stopPropagation();
        onStop(group);
      }}
    >
      {orphansOnly ? 'Stop orphans…' : compact ? 'Stop…' : 'Stop group…'}
    </button>
  );
}
