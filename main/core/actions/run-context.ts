import type { ProcessSampler } from '../sampling/process-sampler';
import type { GroupIdentities } from './group-signal';
import type { ReadMembers } from './member-stats';
import type { IdentityHandle } from './identity-signal';
import type { OutcomeBook, Tracked } from './outcome-book';
import type { SelfIdentity, SignalName, TeardownTarget } from './teardown-types';

/**
 * What one teardown run's steps share. Fixed for the run but for the book and the pinned handles, which
 * fill as it goes; a step that must end the run returns why (a refusal), it never sets it here.
 */
export interface RunContext {
  readonly target: TeardownTarget;
  readonly sampler: ProcessSampler;
  /** Cheap re-reads of members while watching. */
  readonly readMembers: ReadMembers;
  readonly self: SelfIdentity;
  readonly book: OutcomeBook;
  readonly graceMs: number;
  readonly killWaitMs: number;
  readonly pollMs: number;
  /** Group mode: the identities that prove the PGID is still the chosen group. Null in orphans-only. */
  readonly group: GroupIdentities | null;
  /** Processes signalled one by one, each through a handle pinned to its identity. */
  readonly handles: Map<Tracked, IdentityHandle>;
}

/** Why a run stopped signalling (it becomes TeardownResult.refused); null while it may go on. */
export type Refusal = string | null;

export const previousPhase = (phase: SignalName): SignalName | null =>
  phase === 'SIGKILL' ? 'SIGTERM' : null;

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
