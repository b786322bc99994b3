import { visibleText } from '../../../shared/words/visible-text';
import { useState, type ReactNode } from 'react';
import type { SessionGroupOutcome, StopSessionResult } from '../../../shared/contract';
import type { GroupView, SessionRef } from '../../../shared/model';
import {
  leftoverCommand,
  projectName,
  sessionIdsOf,
  shortSessionId,
} from '../../../shared/words/provenance-text';
import { errorMessage } from '../sync/errors';
import type { TeardownState } from '../store/teardown-slice';
import { groupsOfSession } from '../store/selectors';
import { useCorral, useCorralApi, useCorralStore } from '../store/store-context';
import { StopModal } from './StopModal';
import { StopOutcome } from './StopOutcome';
import { TargetList } from './TargetList';
import { targetsSentence } from '../../../shared/words/stop-wording';
import { useGraceMs } from './use-grace-ms';

interface StopSessionDialogProps {
  session: SessionRef;
  /** The session's groups other than the agent's own, as they were when the user asked. */
  leftovers: GroupView[];
  onClose: () => void;
}

type Answer = { kind: 'done'; result: StopSessionResult } | { kind: 'failed'; error: string };

/** What one listed group ended as, once the core answered: its teardown, or why it was not stopped. */
function groupState(
  group: GroupView,
  answer: Answer | null,
  live: TeardownState | undefined,
): TeardownState | null {
  if (answer === null) return live ?? null;
  if (answer.kind === 'failed')
    return { status: 'failed', result: live?.result ?? null, error: answer.error };
  // The core reports a group under the id it has now; its PGID is the same group's.
  const outcome: SessionGroupOutcome | undefined = answer.result.outcomes.find(
    (o) => o.groupId === group.id || o.result?.pgid === group.pgid,
  );
  if (outcome?.result) return { status: 'done', result: outcome.result, error: null };
  const why = outcome?.refused ?? answer.result.refused ?? 'the core reported no outcome for this group';
  return { status: 'failed', result: null, error: `Not stopped: ${why}` };
}

/** One leftover group under its caption: its targets before the stop, its outcome after. */
function GroupSection({ group, children }: { group: GroupView; children: ReactNode }) {
  return (
    <section className="session-stop-group">
      <p className="muted group-caption">
        Group {group.pgid}: {visibleText(leftoverCommand(group))}
      </p>
      {children}
    </section>
  );
}

/**
 * "Stop everything this session left": every process of every leftover group listed first, then one
 * `session:stop` request; the core stops each confirmed group through its one stop path and leaves the
 * agent's own group alone.
 */
export function StopSessionDialog({ session, leftovers, onClose }: StopSessionDialogProps) {
  const api = useCorralApi();
  const store = useCorralStore();
  const [started, setStarted] = useState(false);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const teardowns = useCorral((s) => s.teardowns);
  // A boolean, not the groups: the open dialog does not render again with every snapshot.
  const keepsAgent = useCorral((s) =>
    groupsOfSession(s.snapshot?.groups ?? [], session.id).some((g) => g.containsAgent),
  );
  // A string, not the groups, for the same reason: as short as the other sessions shown allow.
  const shortId = useCorral((s) => shortSessionId(session.id, sessionIdsOf(s.snapshot?.groups ?? [])));
  const graceMs = useGraceMs();
  const count = leftovers.reduce((sum, g) => sum + g.processes.length, 0);
  const project = projectName(session.project);

  const confirm = () => {
    setStarted(true);
    for (const group of leftovers) store.getState().teardownStarted(group.id);
    api.request('session:stop', { sessionId: session.id, groupIds: leftovers.map((g) => g.id) }).then(
      (result) => setAnswer({ kind: 'done', result }),
      (error: unknown) => setAnswer({ kind: 'failed', error: errorMessage(error) }),
    );
  };

  return (
    <StopModal
      title={`Stop everything session ${shortId} left`}
      testId="stop-session-dialog"
      subtitle={
        <span title={session.project ?? undefined}>
          {project ? `in ${project}, ` : ''}
          {leftovers.length} group{leftovers.length === 1 ? '' : 's'}
          {keepsAgent ? "; the agent's own group is left alone" : ''}
        </span>
      }
      started={started}
      nothingToStop={count === 0}
      onConfirm={confirm}
      onClose={onClose}
    >
      {!started ? (
        <>
          <p>{targetsSentence(count, graceMs)}</p>
          {leftovers.map((group) => (
            <GroupSection key={group.id} group={group}>
              <TargetList
                label={`Group ${group.pgid}: ${visibleText(leftoverCommand(group))}`}
                targets={group.processes}
              />
            </GroupSection>
          ))}
        </>
      ) : (
        <>
          {answer?.kind === 'done' && answer.result.refused ? (
            <p role="alert" className="error" data-testid="session-refused">
              Refused: {answer.result.refused}
            </p>
          ) : null}
          {leftovers.map((group) => (
            <GroupSection key={group.id} group={group}>
              <StopOutcome
                targets={group.processes}
                teardown={groupState(group, answer, teardowns.get(group.id))}
              />
            </GroupSection>
          ))}
        </>
      )}
    </StopModal>
  );
}
