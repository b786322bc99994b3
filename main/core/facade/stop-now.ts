// `corral kill`: one look at the process table, then the one stop path (stop-and-record.ts) for a
// group by id, or for each group a port or a session names (stop-session.ts), as the UI stops them.
import type { GroupView, Settings, TeardownResult } from '../../../shared/model';
import { matcherFor } from '../analysis/signatures';
import { rememberedMembers } from '../actions/remembered-members';
import type { KnownMember } from '../actions/resolve-group-id';
import { stopAndRecord, type StopOutcome } from '../actions/stop-and-record';
import { stopRequestNote } from '../actions/stop-request-note';
import { stopPortListeners, stopSession, type StoppedGroups } from '../actions/stop-session';
import { createSampler } from '../sampling/create-sampler';
import { takeOneShotSnapshot } from '../snapshot/one-shot-snapshot';
import { removeKeeps } from '../storage/keeps';
import { keepsOrNone, recentIncidents, userDataDir } from './user-data';

export interface StopNowOptions {
  graceMs: number;
  orphansOnly: boolean;
  withEscaped: boolean;
  dryRun: boolean;
  /** A kept group was stopped (the caller warns); once it is gone its keep is released. */
  onKeptStop: (group: GroupView, result: TeardownResult) => void;
  /** Why the keeps could not be read (none is shown kept). */
  keepsRefused: (message: string) => void;
}

/** Stops one group by its id (or an older id that still proves to be it). */
export async function stopGroupNow(
  settings: Settings,
  groupId: string,
  o: StopNowOptions,
): Promise<StopOutcome> {
  const { stopOne } = await lookToStop(settings, o, false);
  return stopOne(groupId, rememberedMembers(groupId));
}

/**
 * Stops every group listening on a port, or every leftover group of a session (never the agent's own),
 * each through the same teardown and refusals as one group by id.
 */
export async function stopTargetsNow(
  settings: Settings,
  by: { port: number } | { session: string },
  o: StopNowOptions & { anyOwner: boolean },
): Promise<StoppedGroups> {
  const { groups, stopOne } = await lookToStop(settings, o, 'port' in by);
  // A stop the user asked for by port or session is theirs, as one asked by group id is.
  const stopEach = (groupId: string) => stopOne(groupId);
  if ('port' in by) {
    const owner = { anyOwner: o.anyOwner, selfUid: process.getuid?.() ?? null };
    return stopPortListeners(by.port, groups, owner, stopEach);
  }
  const { sessionId: _full, ...stopped } = await stopSession({ sessionId: by.session }, groups, stopEach);
  return stopped;
}

/** One look at the process table, and the one stop path over it (stop-and-record.ts) for each group asked. */
async function lookToStop(settings: Settings, o: StopNowOptions, portsOfAll: boolean) {
  const sampler = createSampler({ markerKeys: matcherFor(settings).markerKeys });
  const { groups } = await takeOneShotSnapshot(settings, {
    intervalMs: 0,
    sampler,
    named: recentIncidents(),
    keeps: keepsOrNone(o.keepsRefused),
    portsOfAll,
  });
  const stopOne = async (groupId: string, remembered?: readonly KnownMember[]): Promise<StopOutcome> => {
    const outcome = await stopAndRecord(
      { groupId, orphansOnly: o.orphansOnly, withEscaped: o.withEscaped, dryRun: o.dryRun },
      groups,
      { graceMs: o.graceMs, sampler, ...(remembered ? { remembered } : {}) },
      stopRequestNote(),
    );
    if (outcome.refused === null) keptStop(outcome.group, outcome.result, o);
    return outcome;
  };
  return { groups, stopOne };
}

function keptStop(group: GroupView, result: TeardownResult, o: StopNowOptions): void {
  if (!group.kept || result.dryRun || result.refused) return;
  o.onKeptStop(group, result);
  if (result.clean) removeKeeps(userDataDir(), group, Date.now());
}
