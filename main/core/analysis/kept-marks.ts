import type { GroupView, KeptMark } from '../../../shared/model';

/** A keep the user asked for (`corral keep`, "Keep running"), as storage/keeps.ts keeps it. */
export interface KeepRecord {
  /** The group id (`<pgid>:<anchorPid>:<anchorStartKey>`) when kept. */
  groupId: string;
  pgid: number;
  /**
   * The members (pid and start stamp) when kept: a group whose leader exits is known by another anchor
   * afterwards, and is still this group while one of these lives in the same PGID. A reused PGID holds
   * none of them, so it never inherits the keep.
   */
  members: Array<{ pid: number; startKey: number }>;
  since: number;
  until: number;
  note: string | null;
}

/** A group as a keep names it: its id, PGID and processes (pid and start stamp). */
export interface KeepTarget {
  id: string;
  pgid: number;
  processes: readonly { pid: number; startKey: number }[];
}

/** Pure: whether `record` names this live group (same id, or same PGID and one of the same processes). */
export function keepNames(record: KeepRecord, group: KeepTarget): boolean {
  if (record.groupId === group.id) return true;
  if (record.pgid !== group.pgid) return false;
  return group.processes.some((p) =>
    record.members.some((m) => m.pid === p.pid && m.startKey === p.startKey),
  );
}

/** Pure: the keep in force on a group at `now`, or null (an expired keep is no keep). */
export function keptMarkOf(
  group: Pick<GroupView, 'id' | 'pgid' | 'processes'>,
  keeps: readonly KeepRecord[],
  now: number,
): KeptMark | null {
  let best: KeepRecord | null = null;
  for (const k of keeps)
    if (k.until > now && keepNames(k, group) && (!best || k.until > best.until)) best = k;
  return best && { until: best.until, since: best.since, note: best.note };
}

/** Pure: the groups with `kept` set (a new object where it changed), so every group carries the field. */
export function markKept(
  groups: readonly GroupView[],
  keeps: readonly KeepRecord[],
  now: number,
): GroupView[] {
  return groups.map((g) => {
    const mark = keptMarkOf(g, keeps, now);
    const old = g.kept ?? null;
    if (old === mark || (old && mark && old.until === mark.until && old.note === mark.note)) {
      return g.kept === undefined ? { ...g, kept: null } : g;
    }
    return { ...g, kept: mark };
  });
}
