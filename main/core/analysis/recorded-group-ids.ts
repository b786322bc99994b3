/**
 * A group seen and named before: an incident, or a group a running monitor follows. Its id was taken
 * at its first sighting, while its leader may still have lived.
 */
export interface NamedGroup {
  groupId: string;
  pgid: number;
  processes: Iterable<{ pid: number; startKey: number }>;
}

/**
 * The id a group was first given, when one of `named` is this group: the same PGID and one process in
 * common (a PGID is never reused while a member lives, so a shared process proves it is the same
 * group). Null when none is. A reader that finds the leader gone could only name the group by its
 * oldest member (chooseAnchor); this keeps one id for one group in every view.
 * `named` newest first: the first match wins.
 */
export function recordedGroupId(
  named: Iterable<NamedGroup>,
  pgid: number,
  members: readonly { pid: number; startKey: number }[],
): string | null {
  for (const n of named) {
    if (n.pgid !== pgid) continue;
    for (const p of n.processes)
      if (members.some((m) => m.pid === p.pid && m.startKey === p.startKey)) return n.groupId;
  }
  return null;
}

/** Each group under the id it was first given (see recordedGroupId), else its own. */
export function withRecordedIds<
  G extends { id: string; pgid: number; processes: readonly { pid: number; startKey: number }[] },
>(groups: readonly G[], named: readonly NamedGroup[]): G[] {
  if (named.length === 0) return [...groups];
  return groups.map((g) => {
    const id = recordedGroupId(named, g.pgid, g.processes);
    return id === null || id === g.id ? g : { ...g, id };
  });
}
