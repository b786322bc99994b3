import type { ProcessSampler } from '../sampling/process-sampler';
import type { GroupIdentities } from './group-signal';
import type { ReadMembers } from './member-stats';
import type { IdentityHandle } from './identity-signal';
import type { OutcomeBook, Tracked } from './outcome-book';
import type { SelfIdentity, SignalName, TeardownTarget } from './teardown-types';

/** Everything one teardown run shares between its steps. */
export interface RunContext {
  target: TeardownTarget;
  sampler: ProcessSampler;
  /** Cheap re-reads of members while watching. */
  readMembers: ReadMembers;
  self: SelfIdentity;
  book: OutcomeBook;
  graceMs: number;
  killWaitMs: number;
  pollMs: number;
  /** Set in group mode: the identities that prove the PGID is still the chosen group. */
  group: GroupIdentities | null;
  /** Processes signalled one by one, each through a handle pinned to its identity. */
  handles: Map<Tracked, IdentityHandle>;
  /** Set once the run must stop signalling; becomes TeardownResult.refused. */
  refused: string | null;
}

export const previousPhase = (phase: SignalName): SignalName | null =>
  phase === 'SIGKILL' ? 'SIGTERM' : null;

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
