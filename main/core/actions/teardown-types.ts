import type { TeardownResult } from '../../../shared/model';
import type { ProcessSampler } from '../sampling/process-sampler';

export interface ProcessIdentity {
  pid: number;
  startKey: number;
  command: string;
}

export interface TeardownTarget {
  /** `<pgid>:<anchorPid>:<anchorStartKey>` as reported by `corral ps`. */
  groupId: string;
  pgid: number;
  sid: number;
  anchor: { pid: number; startKey: number };
  /** Members as last seen by the caller. */
  members: ProcessIdentity[];
  /** Members flagged orphan (what orphans-only stops). */
  orphans: ProcessIdentity[];
  /** Left the group with setsid but belong to the same tool call by lineage. */
  escaped: ProcessIdentity[];
  /** The group holds the agent's own process. */
  containsAgent: boolean;
  /** Why a plain group teardown would hurt the user (e.g. "holds your interactive shell"). */
  protectedReason: string | null;
}

export interface SelfIdentity {
  pid: number;
  pgid: number;
  sid: number;
}

export interface TeardownOptions {
  graceMs: number;
  mode: 'group' | 'orphans-only';
  withEscaped: boolean;
  dryRun: boolean;
  sampler: ProcessSampler;
  /** Defaults to this process's. */
  self?: SelfIdentity;
  onProgress?: (partial: TeardownResult) => void;
  /** How long to wait for SIGKILLed processes to be gone (and reaped). Default 2000. */
  killWaitMs?: number;
  /** Watch interval. Default 10. */
  pollMs?: number;
}

export type SignalName = 'SIGTERM' | 'SIGKILL';
export type SignalResult = 'sent' | 'ESRCH' | 'EPERM' | 'error';
