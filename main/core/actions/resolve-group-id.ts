import type { GroupView } from '../../../shared/model';
import { parseGroupId } from '../analysis/group-id';

export interface KnownMember {
  pid: number;
  startKey: number;
}

export type GroupResolution =
  | {
      kind: 'found';
      group: GroupView;
      /** What proved it: the same id, the anchor still in the group, a member Corral saw, an older member. */
      proof: 'same-id' | 'anchor' | 'remembered-member' | 'older-member';
    }
  | { kind: 'already-gone'; message: string }
  | { kind: 'reused'; message: string }
  | { kind: 'unproven'; message: string };

/**
 * Finds the live group a printed id `<pgid>:<anchorPid>:<anchorStartKey>` names, whatever anchor the
 * group has moved to since (the anchor is the leader while it lives, then the oldest member).
 *
 * The rules rest on one kernel fact: a PGID is a pid number, and Linux does not hand out a pid again
 * while any process still uses it as a PGID or SID (the struct pid stays allocated, kernel/pid.c), so a
 * PGID is reused only after every member of the old group is gone. Hence:
 * - no process in the PGID: the group is `already-gone`;
 * - the anchor (pid and start) still in it, or any member Corral saw in that group (`remembered`, from
 *   the monitor's memory or the incident history) still in it: `found`;
 * - a member that started no later than the anchor: it was alive while the named group was, and the
 *   PGID could not have been reused under it, so it is that group: `found`;
 * - a live leader (pid = PGID) that is not the anchor: the named group's leader was dead when the id was
 *   printed (or was the anchor, now gone) and a group never regains its leader, so the PGID now belongs
 *   to a new group: `reused`;
 * - otherwise (leaderless, every member younger than the anchor, none remembered) nothing proves
 *   either way: `unproven`, and Corral signals nothing.
 */
export function resolveGroupId(
  id: string,
  groups: readonly GroupView[],
  remembered: readonly KnownMember[] = [],
): GroupResolution {
  const parts = parseGroupId(id);
  if (!parts)
    throw new Error(`'${id}' is not a group id (expected <pgid>:<pid>:<start> as shown by corral ps)`);
  const group = groups.find((g) => g.pgid === parts.pgid);
  if (!group || group.processes.length === 0)
    return {
      kind: 'already-gone',
      message: `group ${id} is already gone (no live group: no process is left in PGID ${parts.pgid})`,
    };
  if (group.id === id) return { kind: 'found', group, proof: 'same-id' };
  const members = group.processes;
  const has = (m: KnownMember) => members.some((p) => p.pid === m.pid && p.startKey === m.startKey);
  if (has({ pid: parts.anchorPid, startKey: parts.anchorStartKey }))
    return { kind: 'found', group, proof: 'anchor' };
  if (remembered.some(has)) return { kind: 'found', group, proof: 'remembered-member' };
  const leader = members.find((p) => p.pid === parts.pgid);
  if (leader) {
    return {
      kind: 'reused',
      message:
        `group ${id} is gone and PGID ${parts.pgid} now belongs to another group: its leader (pid ${leader.pid}) ` +
        `is not the group's anchor (pid ${parts.anchorPid}), and a group never regains a leader it lost`,
    };
  }
  if (members.some((p) => p.startKey <= parts.anchorStartKey))
    return { kind: 'found', group, proof: 'older-member' };
  return {
    kind: 'unproven',
    message:
      `cannot prove PGID ${parts.pgid} is still group ${id}: its anchor (pid ${parts.anchorPid}) is gone and ` +
      `Corral has no record of its other members. Run corral ps and use the id it shows now (${group.id})`,
  };
}
