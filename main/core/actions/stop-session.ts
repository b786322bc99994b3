import type { SessionGroupOutcome, StopSessionRequest, StopSessionResult } from '../../../shared/contract';
import type { GroupView } from '../../../shared/model';
import {
  resolvePortTargets,
  resolveSessionTargets,
  type ResolvedTargets,
} from '../provenance/resolve-targets';
import { resolveGroupId, type GroupResolution, type KnownMember } from './resolve-group-id';
import type { StopOutcome } from './stop-and-record';

const NOT_CONFIRMED = 'not among the groups confirmed (it appeared after the list was shown)';

/**
 * "Stop everything this session left" (the UI's dialog, `corral kill --session`): every group of the session except the agent's own
 * (resolve-targets.ts decides which), each stopped through `stopOne`, which must be the one stop path
 * (stop-and-record.ts), one outcome per group. `groups` are views carrying provenance (`session`).
 *
 * With `groupIds` (what the user confirmed), a target is stopped only when one of them names it, by its
 * id now or by an id that still proves to be it (resolve-group-id.ts); a confirmed group that is no
 * longer a leftover of the session gets an outcome saying so and no signal.
 */
export async function stopSession(
  request: StopSessionRequest,
  groups: readonly GroupView[],
  stopOne: (groupId: string) => Promise<StopOutcome>,
  /** Members Corral saw in a group by an id it once had (the monitor's memory), to prove older ids. */
  remembered: (groupId: string) => readonly KnownMember[] = () => [],
): Promise<StopSessionResult> {
  const resolve = (id: string): GroupResolution | null => {
    try {
      return resolveGroupId(id, groups, remembered(id));
    } catch {
      return null;
    }
  };
  const resolved = resolveSessionTargets(groups, request.sessionId);
  const sessionId = sessionIdOf(groups, resolved.groupIds) ?? request.sessionId;
  const result: StopSessionResult = {
    sessionId,
    refused: resolved.refused,
    skipped: [...resolved.skipped],
    outcomes: [],
  };
  if (resolved.refused !== null) return result;

  let targets = resolved.groupIds;
  const unmatched: string[] = [];
  if (request.groupIds !== undefined) {
    const chosen = new Set<string>();
    for (const confirmed of request.groupIds) {
      const now = targets.includes(confirmed) ? confirmed : idNow(resolve(confirmed));
      if (now !== null && targets.includes(now)) chosen.add(now);
      else unmatched.push(confirmed);
    }
    for (const id of targets)
      if (!chosen.has(id)) result.skipped.push({ groupId: id, reason: NOT_CONFIRMED });
    targets = targets.filter((id) => chosen.has(id));
  }

  result.outcomes.push(...(await stopEach(targets, stopOne)));
  for (const groupId of unmatched)
    result.outcomes.push({
      groupId,
      result: null,
      refused:
        notFound(resolve(groupId)) ?? `group ${groupId} is no longer a leftover of session ${sessionId}`,
    });
  if (result.outcomes.length === 0)
    result.refused = `none of the confirmed groups is still a leftover of session ${sessionId}`;
  return result;
}

/** What one stop of several asked: the groups left alone and each group's outcome. */
export type StoppedGroups = Omit<StopSessionResult, 'sessionId'>;

/**
 * `corral kill --port N`: every group listening on the port (resolve-targets.ts decides which, and
 * refuses a listener no agent started or another user's unless `anyOwner`), each stopped through
 * `stopOne`, the one stop path, as a session's leftovers are.
 */
export async function stopPortListeners(
  port: number,
  groups: readonly GroupView[],
  { anyOwner, selfUid }: { anyOwner: boolean; selfUid: number | null },
  stopOne: (groupId: string) => Promise<StopOutcome>,
): Promise<StoppedGroups> {
  const resolved: ResolvedTargets = resolvePortTargets(groups, port, anyOwner, selfUid);
  const outcomes = resolved.refused === null ? await stopEach(resolved.groupIds, stopOne) : [];
  return { refused: resolved.refused, skipped: [...resolved.skipped], outcomes };
}

async function stopEach(
  groupIds: readonly string[],
  stopOne: (groupId: string) => Promise<StopOutcome>,
): Promise<SessionGroupOutcome[]> {
  const outcomes: SessionGroupOutcome[] = [];
  for (const groupId of groupIds) outcomes.push(outcomeOf(groupId, await stopOne(groupId)));
  return outcomes;
}

function outcomeOf(groupId: string, outcome: StopOutcome): SessionGroupOutcome {
  return outcome.refused !== null
    ? { groupId, result: null, refused: outcome.refused.message }
    : { groupId, result: outcome.result, refused: null };
}

/** The full session id behind a prefix, taken from the groups it resolved to. */
function sessionIdOf(groups: readonly GroupView[], ids: readonly string[]): string | null {
  return groups.find((g) => ids.includes(g.id))?.session?.id ?? null;
}

function idNow(resolution: GroupResolution | null): string | null {
  return resolution?.kind === 'found' ? resolution.group.id : null;
}

function notFound(resolution: GroupResolution | null): string | null {
  return resolution && resolution.kind !== 'found' ? resolution.message : null;
}
