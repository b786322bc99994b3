import { GroupIdentities } from './group-signal';
import { listEscaped, openIdentityTargets } from './identity-targets';
import { identityOf, indexByPid, leftGroup } from './observe';
import { runPhases } from './phases';
import type { RunContext } from './run-context';

export const ESCAPED_NOTE = 'escaped the group (setsid); stopped by identity';
export const ESCAPED_UNSIGNALLED = 'left the group (setsid); not signalled without with-escaped';

/** Stops a whole process group with signals to -PGID, after proving the PGID is still that group. */
export async function runGroup(ctx: RunContext, withEscaped: boolean, dryRun: boolean): Promise<void> {
  const { target, book } = ctx;
  const group = new GroupIdentities(target.pgid);
  ctx.group = group;
  group.add(target.anchor.pid, target.anchor.startKey);
  for (const m of target.members) group.add(m.pid, m.startKey);

  const all = ctx.sampler.sampleAll();
  const byPid = indexByPid(all);
  const inGroup = all.filter((r) => r.pgid === target.pgid);
  if (!group.enrol(inGroup) && inGroup.length > 0) {
    ctx.refused =
      `PGID ${target.pgid} is no longer group ${target.groupId}: neither its anchor (PID ${target.anchor.pid}) ` +
      'nor any member Corral saw is in it now, so the PGID may have been reused by another group. Nothing was signalled';
    return;
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

  if (dryRun) {
    for (const t of book.pending())
      book.settle(t, { outcome: 'skipped', state: t.state ?? undefined, reason: 'dry run' });
    return;
  }
  await runPhases(ctx);
}
