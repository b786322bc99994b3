import { GroupIdentities } from './group-signal';
import { listEscaped, openIdentityTargets } from './identity-targets';
import { identityOf, indexByPid, leftGroup } from './observe';
import type { Refusal, RunContext } from './run-context';
import type { TeardownTarget } from './teardown-types';

export const ESCAPED_NOTE = 'escaped the group (setsid); stopped by identity';
export const ESCAPED_UNSIGNALLED = 'left the group (setsid); not signalled without with-escaped';

/** The identities the caller saw in the group: the anchor and every member. */
export function knownIdentities(target: TeardownTarget): GroupIdentities {
  const group = new GroupIdentities(target.pgid);
  group.add(target.anchor.pid, target.anchor.startKey);
  for (const m of target.members) group.add(m.pid, m.startKey);
  return group;
}

/**
 * Group mode's targets: proves from a fresh read of the table that the PGID is still the group (one of
 * its known identities is in it), then tracks every member for signals to -PGID. Escaped processes are
 * pinned by identity with withEscaped, listed otherwise. Refused when the PGID may have been reused.
 */
export function enrolGroup(
  ctx: RunContext,
  group: GroupIdentities,
  withEscaped: boolean,
  dryRun: boolean,
): Refusal {
  const { target, book } = ctx;
  const all = ctx.sampler.sampleAll();
  const byPid = indexByPid(all);
  const inGroup = all.filter((r) => r.pgid === target.pgid);
  if (!group.enrol(inGroup) && inGroup.length > 0) {
    return (
      `PGID ${target.pgid} is no longer group ${target.groupId}: neither its anchor (PID ${target.anchor.pid}) ` +
      'nor any member Corral saw is in it now, so the PGID may have been reused by another group. Nothing was signalled'
    );
  }

  for (const m of target.members) {
    const r = byPid.get(m.pid);
    const same = r !== undefined && r.startKey === m.startKey;
    if (same && !leftGroup(r, target.pgid)) book.track(m, r, 'group');
    else if (same) {
      book.settle(book.track(m, r, null), {
        outcome: 'escaped-group',
        state: r.state,
        reason: `left the process group before teardown (now PGID ${r.pgid}); not signalled`,
      });
    } else book.markGone(book.track(m, null, 'group'), null);
  }
  for (const r of inGroup) {
    const entry = book.track(identityOf(r), r, 'group');
    if (r.state === 'Z') book.markDead(entry, null);
  }

  if (withEscaped) openIdentityTargets(ctx, target.escaped, { dryRun, note: ESCAPED_NOTE });
  else listEscaped(ctx, target.escaped, ESCAPED_UNSIGNALLED);
  return null;
}
