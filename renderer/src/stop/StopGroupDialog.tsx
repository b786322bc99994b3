import { keptLabel } from '../../../shared/words/keep-duration';
import { visibleText } from '../../../shared/words/visible-text';
import { useState } from 'react';
import type { GroupView } from '../../../shared/model';
import { errorMessage } from '../sync/errors';
import { useCorral, useCorralApi, useCorralStore } from '../store/store-context';
import { escapedFrom, stopModes, stopTargets, type StopMode } from '../../../shared/stop-targets';
import { StopModal } from './StopModal';
import { StopOutcome } from './StopOutcome';
import { TargetList } from './TargetList';
import { targetsSentence } from '../../../shared/words/stop-wording';
import { useGraceMs } from './use-grace-ms';

const MODE_LABELS: Record<StopMode, string> = {
  group: 'Whole group',
  'orphans-only': 'Orphans only',
};

interface StopGroupDialogProps {
  /** The group as it was when the user asked to stop it: the list confirmed is the list shown. */
  group: GroupView;
  onClose: () => void;
}

export function StopGroupDialog({ group, onClose }: StopGroupDialogProps) {
  const api = useCorralApi();
  const store = useCorralStore();
  const modes = stopModes(group);
  const [mode, setMode] = useState<StopMode>(modes[0]!);
  const [started, setStarted] = useState(false);
  const [withEscaped, setWithEscaped] = useState(false);
  const teardown = useCorral((s) => s.teardowns.get(group.id));
  const groups = useCorral((s) => s.snapshot?.groups);
  const escaped = escapedFrom(group, groups ?? []);
  const targets = [...stopTargets(group, mode), ...(withEscaped ? escaped : [])];
  const graceMs = useGraceMs();

  const confirm = () => {
    setStarted(true);
    const state = store.getState();
    state.teardownStarted(group.id);
    api.request('group:stop', { groupId: group.id, orphansOnly: mode === 'orphans-only', withEscaped }).then(
      (result) => store.getState().teardownFinished(result),
      (error: unknown) => store.getState().teardownFailed(group.id, errorMessage(error)),
    );
  };

  return (
    <StopModal
      title={`Stop group ${group.pgid}`}
      testId="stop-dialog"
      subtitle={
        <span title={`${visibleText(group.processes[0]?.command ?? '')} (Unix session ${group.sid})`}>
          {group.agent ? `${group.agent.name}'s ` : ''}
          {group.processes.length} process{group.processes.length === 1 ? '' : 'es'}
        </span>
      }
      started={started}
      nothingToStop={targets.length === 0}
      onConfirm={confirm}
      onClose={onClose}
    >
      {!started ? (
        <>
          <fieldset className="stop-modes">
            <legend>What to stop</legend>
            {modes.map((m) => (
              <label key={m}>
                <input
                  type="radio"
                  name="stop-mode"
                  value={m}
                  checked={mode === m}
                  onChange={() => setMode(m)}
                />
                {MODE_LABELS[m]}
              </label>
            ))}
            {escaped.length > 0 ? (
              <label>
                <input
                  type="checkbox"
                  checked={withEscaped}
                  onChange={(event) => setWithEscaped(event.target.checked)}
                />
                Also the {escaped.length} process{escaped.length === 1 ? '' : 'es'} that left this group
                (setsid), each checked by its identity
              </label>
            ) : null}
            {group.containsAgent ? (
              <p className="muted">This group contains the agent itself: only its orphans can be stopped.</p>
            ) : null}
          </fieldset>
          {group.kept ? (
            <p role="alert" className="kept-warning" data-testid="stop-kept">
              You kept this group running ({keptLabel(group.kept.until, Date.now())}). Stopping it ends the
              keep.
            </p>
          ) : null}
          <p>{targetsSentence(targets.length, graceMs)}</p>
          <TargetList label="Processes to signal" targets={targets} />
        </>
      ) : (
        <StopOutcome targets={targets} teardown={teardown ?? null} />
      )}
    </StopModal>
  );
}
