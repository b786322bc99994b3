import { useEffect, useId, useRef, useState } from 'react';
import { commandThatMatters } from '../../../shared/command-summary';
import type { GroupView } from '../../../shared/model';
import { errorMessage } from '../sync/errors';
import { useCorral, useCorralApi, useCorralStore } from '../store/store-context';
import { stopTargets } from './stop-targets';
import { StopOutcome } from './StopOutcome';
import { targetsSentence } from './stop-wording';
import { useGraceMs } from './use-grace-ms';

interface StopAgentOrphansDialogProps {
  agentName: string;
  /** The agent's groups holding orphans, as they were when the user asked. */
  groups: GroupView[];
  onClose: () => void;
}

/** "Stop all orphans of this agent": every orphan listed first, then one orphans-only stop per group. */
export function StopAgentOrphansDialog({ agentName, groups, onClose }: StopAgentOrphansDialogProps) {
  const api = useCorralApi();
  const store = useCorralStore();
  const [started, setStarted] = useState(false);
  const teardowns = useCorral((s) => s.teardowns);
  const graceMs = useGraceMs();
  const titleId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const perGroup = groups.map((group) => ({ group, targets: stopTargets(group, 'orphans-only') }));
  const count = perGroup.reduce((sum, g) => sum + g.targets.length, 0);

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
    for (const { group } of perGroup) {
      store.getState().teardownStarted(group.id);
      api.request('group:stop', { groupId: group.id, orphansOnly: true }).then(
        (result) => store.getState().teardownFinished(result),
        (error: unknown) => store.getState().teardownFailed(group.id, errorMessage(error)),
      );
    }
  };

  return (
    <div className="modal-backdrop">
      <div
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid="stop-agent-dialog"
      >
        <h2 id={titleId}>Stop all orphans of {agentName}</h2>
        {!started ? (
          <>
            <p>{targetsSentence(count, graceMs)}</p>
            {perGroup.map(({ group, targets }) => (
              <ul
                key={group.id}
                className="target-list"
                aria-label={`Orphans in group ${group.pgid}`}
                data-testid="stop-targets"
              >
                {targets.map((p) => (
                  <li key={p.pid} data-pid={p.pid}>
                    <span className="pid">{p.pid}</span>{' '}
                    <code title={p.command}>{commandThatMatters(p.command)}</code>
                  </li>
                ))}
              </ul>
            ))}
            <div className="modal-actions">
              <button type="button" ref={cancelRef} onClick={onClose}>
                Cancel
              </button>
              <button type="button" className="danger" onClick={confirm} disabled={count === 0}>
                Stop
              </button>
            </div>
          </>
        ) : (
          <>
            {perGroup.map(({ group, targets }) => (
              <StopOutcome key={group.id} targets={targets} teardown={teardowns.get(group.id) ?? null} />
            ))}
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
