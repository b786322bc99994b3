import type { SignalRecord } from '../../../../shared/model';

/** A stop another command (`corral kill`) or another Corral asked for, as the monitor reads it. */
export interface RequestedStop {
  at: number;
  /** pid of the Corral that asked. */
  by: number;
  /** The command that asked, in words ("corral kill"). */
  via?: string;
  /** The processes the stop was aimed at, as they were just before the first signal. */
  members: ReadonlyArray<{ pid: number; startKey: number }>;
  /** The signals sent so far. */
  signals?: readonly SignalRecord[];
}

/**
 * Where the monitor learns of stops asked elsewhere (storage/stop-requests.ts, wired in
 * create-service.ts): the requests since `since` aimed at this group (same PGID, and its id or one of
 * its processes). The monitor never reads them from disk itself.
 */
export type StopRequestSource = (
  group: { id: string; pgid: number; members: Iterable<{ pid: number; startKey: number }> },
  since: number,
  now: number,
) => readonly RequestedStop[];

/** No stops asked elsewhere: a monitor without a data directory (tests, the bench). */
export const NO_STOP_REQUESTS: StopRequestSource = () => [];
