import { ESCAPED_NOTE, ESCAPED_UNSIGNALLED } from './group-teardown';
import { listEscaped, openIdentityTargets } from './identity-targets';
import { indexByPid } from './observe';
import type { Refusal, RunContext } from './run-context';

/**
 * Orphans-only mode's targets: only the members flagged orphan (and, with-escaped, the escaped ones),
 * each pinned to its identity; the rest of the group, the agent included, is listed and left running.
 */
export function pinOrphans(ctx: RunContext, withEscaped: boolean, dryRun: boolean): Refusal {
  const { target, book } = ctx;
  if (target.orphans.length === 0 && !(withEscaped && target.escaped.length > 0))
    return 'no process in this group is flagged orphan: orphans-only has nothing to stop';
  openIdentityTargets(ctx, target.orphans, { dryRun });
  if (withEscaped) openIdentityTargets(ctx, target.escaped, { dryRun, note: ESCAPED_NOTE });
  else listEscaped(ctx, target.escaped, ESCAPED_UNSIGNALLED);

  const byPid = indexByPid(ctx.sampler.sampleSome(target.members.map((m) => m.pid)));
  for (const m of target.members) {
    if (book.get(m.pid, m.startKey)) continue;
    const r = byPid.get(m.pid);
    const entry = book.track(m, null, null);
    if (r && r.startKey === m.startKey) {
      book.observe(entry, r);
      book.settle(entry, {
        outcome: 'skipped',
        state: r.state,
        reason: 'not an orphan: orphans-only leaves it running',
      });
    } else book.markGone(entry, null);
  }
  return null;
}
