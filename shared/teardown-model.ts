// What a stop did, process by process, as the CLI, IPC and serve report it.
// Field names here are a public contract: extend, never rename.

export type TeardownOutcomeKind =
  | 'exited-after-term'
  | 'killed'
  | 'already-gone'
  | 'not-permitted'
  | 'still-alive'
  | 'escaped-group'
  | 'skipped';

export interface TeardownProcessOutcome {
  pid: number;
  startKey: number;
  command: string;
  outcome: TeardownOutcomeKind;
  /** Which signal ended it, when Corral knows. */
  endedBy?: 'SIGTERM' | 'SIGKILL';
  /** Owner (uid and name) when the signal was not permitted. */
  owner?: { uid: number; user: string | null };
  state?: string;
  /** ms after teardown began that the process was seen gone. */
  goneAfterMs?: number;
  reason?: string;
}

export interface SignalRecord {
  /** SIGCONT follows SIGTERM so that stopped members can act on it. */
  signal: 'SIGTERM' | 'SIGKILL' | 'SIGCONT';
  target: string;
  at: number;
  result: 'sent' | 'ESRCH' | 'EPERM' | 'error';
}

export interface TeardownResult {
  groupId: string;
  pgid: number;
  mode: 'group' | 'orphans-only';
  dryRun: boolean;
  refused: string | null;
  startedAt: number;
  finishedAt: number;
  signals: SignalRecord[];
  processes: TeardownProcessOutcome[];
  /** True when every targeted process is gone. */
  clean: boolean;
}
