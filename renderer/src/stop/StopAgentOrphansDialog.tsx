import { useState } from 'react';
import type { GroupView } from '../../../shared/model';
import { errorMessage } from '../sync/errors';
import { useCorral, useCorralApi, useCorralStore } from '../store/store-context';
import { stopTargets } from '../../../shared/stop-targets';
import { StopModal } from './StopModal';
import { StopOutcome } from './StopOutcome';
import { TargetList } from './TargetList';
import { targetsSentence } from '../../../shared/words/stop-wording';
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
  const perGroup = groups.map((group) => ({ group, targets: stopTargets(group, 'orphans-only') }));
  const count = perGroup.reduce((sum, g) => sum + g.targets.length, 0);

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
    <StopModal
      title={`Stop all orphans of ${agentName}`}
      testId="stop-agent-dialog"
      started={started}
      nothingToStop={count === 0}
      onConfirm={confirm}
      onClose={onClose}
    >
      {!started ? (
        <>
          <p>{targetsSentence(count, graceMs)}</p>
          {perGroup.map(({ group, targets }) => (
            <TargetList key={group.id} label={`Orphans in group ${group.pgid}`} targets={targets} />
          ))}
        </>
      ) : (
        perGroup.map(({ group, targets }) => (
          <StopOutcome key={group.id} targets={targets} teardown={teardowns.get(group.id) ?? null} />
        ))
      )}
    </StopModal>
  );
}
