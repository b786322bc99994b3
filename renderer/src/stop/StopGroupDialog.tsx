import { useEffect, useId, useRef, useState } from 'react';
import { commandThatMatters } from '../../../shared/command-summary';
import type { GroupView } from '../../../shared/model';
import { errorMessage } from '../sync/errors';
import { useCorral, useCorralApi, useCorralStore } from '../store/store-context';
import { escapedFrom, stopModes, stopTargets, type StopMode } from './stop-targets';
import { StopOutcome } from './StopOutcome';
import { targetsSentence } from './stop-wording';
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
  const titleId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const graceMs = useGraceMs();

  useEffect(() => {
    cancelRef.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);

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
    <div className="modal-backdrop">
      <div
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid="stop-dialog"
      >
        <h2 id={titleId}>Stop group {group.pgid}</h2>
        <p className="muted dialog-command" title={group.processes[0]?.command}>
          {group.agent ? `${group.agent.name}'s ` : ''}
          {group.processes.length} process{group.processes.length === 1 ? '' : 'es'}, session {group.sid}
        </p>
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
                <p className="muted">
                  This group contains the agent itself: only its orphans can be stopped.
                </p>
              ) : null}
            </fieldset>
            <p>{targetsSentence(targets.length, graceMs)}</p>
            <ul className="target-list" aria-label="Processes to signal" data-testid="stop-targets">
              {targets.map((p) => (
                <li key={p.pid} data-pid={p.pid}>
                  <span className="pid">{p.pid}</span>{' '}
                  <code title={p.command}>{commandThatMatters(p.command)}</code>
                </li>
              ))}
            </ul>
            <div className="modal-actions">
              <button type="button" ref={cancelRef} onClick={onClose}>
                Cancel
              </button>
              <button type="button" className="danger" onClick={confirm} disabled={targets.length === 0}>
                Stop
              </button>
            </div>
          </>
        ) : (
          <>
            <StopOutcome targets={targets} teardown={teardown ?? null} />
            <div className="modal-actions">
              <button type="button" ref={cancelRef} onClick={onClose}>
                Close
              </button>
            </div>
          </>
        )}
      </div>
    </div>
  );
}
