// `corral keep`, `unkeep` and `keep --list`: the keeps in the user's data directory, for the groups a
// target names now (the same leftovers of a session that a stop takes, resolve-targets.ts).
import type { GroupView, Settings } from '../../../shared/model';
import type { KeepRecord } from '../analysis/kept-marks';
import { groupsOnPort, resolveSessionTargets } from '../provenance/resolve-targets';
import { takeOneShotSnapshot } from '../snapshot/one-shot-snapshot';
import { addKeep, releaseEndedKeeps, removeKeepById, removeKeeps } from '../storage/keeps';
import { recentIncidents, userDataDir } from './user-data';

export type { KeepRecord } from '../analysis/kept-marks';

/** How a command names groups: one by id, the listeners of a port, or a session's leftovers. */
export type GroupTarget = { groupId: string } | { port: number } | { session: string };

/** The live groups a target names; for a session, its resolver's refusal when it names none to take. */
async function groupsNamed(
  settings: Settings,
  target: GroupTarget,
): Promise<{ groups: GroupView[]; refused: string | null }> {
  const { groups } = await takeOneShotSnapshot(settings, {
    intervalMs: 0,
    named: recentIncidents(),
    portsOfAll: 'port' in target,
  });
  if ('groupId' in target) return { groups: groups.filter((g) => g.id === target.groupId), refused: null };
  if ('port' in target) return { groups: groupsOnPort(groups, target.port), refused: null };
  const resolved = resolveSessionTargets(groups, target.session);
  return { groups: groups.filter((g) => resolved.groupIds.includes(g.id)), refused: resolved.refused };
}

/** Keeps each group a target names until `until`: the groups kept and what was written, or why none. */
export async function keepNow(
  settings: Settings,
  target: GroupTarget,
  { until, note, now }: { until: number; note: string | null; now: number },
): Promise<{ kept: Array<{ group: GroupView; record: KeepRecord }>; refused: string | null }> {
  const { groups, refused } = await groupsNamed(settings, target);
  const kept = groups.map((group) => ({
    group,
    record: addKeep(userDataDir(), group, { until, note, now }),
  }));
  return { kept, refused };
}

/** Ends the keeps of the groups a target names (by id too, for a group gone); the ids unkept. */
export async function unkeepNow(settings: Settings, target: GroupTarget): Promise<string[]> {
  const dataDir = userDataDir();
  const now = Date.now();
  const { groups } = await groupsNamed(settings, target);
  const ended: string[] = [];
  for (const g of groups) if (removeKeeps(dataDir, g, now) > 0) ended.push(g.id);
  // A group already gone (or known by a new anchor) can still be unkept by the id it was kept under.
  if ('groupId' in target && ended.length === 0 && removeKeepById(dataDir, target.groupId) > 0)
    ended.push(target.groupId);
  return ended;
}

/** The keeps in force; keeps end with their group, so those whose group is gone are released here. */
export async function keepsInForce(settings: Settings): Promise<{ keeps: KeepRecord[]; sampledAt: number }> {
  const { groups, sampledAt } = await takeOneShotSnapshot(settings, {
    intervalMs: 0,
    named: recentIncidents(),
  });
  return { keeps: releaseEndedKeeps(userDataDir(), groups, sampledAt), sampledAt };
}
