import { parseGroupId } from '../analysis/group-id';
import type { ProcessIdentity, SelfIdentity, TeardownTarget } from './teardown-types';

const isPid = (n: number): boolean => Number.isSafeInteger(n) && n > 1;

/**
 * Why this target must not be torn down in this mode, or null when it may be. Pure: it looks only at
 * the target as the caller described it; whether the PGID still belongs to that group is checked
 * against the live process table before every signal.
 */
export function targetRefusal(
  target: TeardownTarget,
  mode: 'group' | 'orphans-only',
  self: SelfIdentity,
): string | null {
  const parsed = parseGroupId(target.groupId);
  if (!parsed) {
    return `"${target.groupId}" is not a group id Corral may stop (<pgid>:<anchorPid>:<anchorStartKey>, PGID above 1)`;
  }
  if (
    parsed.pgid !== target.pgid ||
    parsed.anchorPid !== target.anchor.pid ||
    parsed.anchorStartKey !== target.anchor.startKey
  ) {
    return `group id ${target.groupId} does not match the target's PGID and anchor`;
  }
  if (!isPid(target.pgid))
    return `PGID ${target.pgid} is never signalled (0 is the caller's own group, 1 is init's)`;
  if (!isPid(target.anchor.pid)) return `anchor PID ${target.anchor.pid} is not a process Corral may stop`;
  if (!Number.isSafeInteger(target.sid) || target.sid < 0)
    return `session ${target.sid} is not a valid session id`;
  if (target.pgid === self.pgid || target.pgid === self.pid)
    return `PGID ${target.pgid} is Corral's own process group`;
  if (target.pgid === self.sid || target.sid === self.sid)
    return `PGID ${target.pgid} is in Corral's own session`;
  if (target.anchor.pid === self.pid) return `the anchor PID ${self.pid} is Corral itself`;
  if (mode === 'orphans-only') return null;

  const members = [...target.members, target.anchor];
  if (members.some((m) => m.pid === self.pid)) return `the group holds Corral itself (PID ${self.pid})`;
  if (members.some((m) => !isPid(m.pid))) return 'the group lists PID 0 or 1 as a member';
  if (target.containsAgent) {
    return "the group holds the agent's own process: stopping it would stop the agent. Use orphans-only to stop just its orphans";
  }
  if (target.protectedReason) {
    return `the group ${target.protectedReason}: refusing to stop it. Use orphans-only to stop just its orphans`;
  }
  return null;
}

/** Why one process must not be signalled by identity, or null when it may be. */
export function identityRefusal(identity: ProcessIdentity, self: SelfIdentity): string | null {
  if (!isPid(identity.pid)) return `PID ${identity.pid} is never signalled`;
  if (!Number.isSafeInteger(identity.startKey) || identity.startKey < 0)
    return 'no start key to prove its identity';
  if (identity.pid === self.pid) return 'this is Corral itself';
  return null;
}
