import type { TeardownResult } from '../../../shared/model';
import type { ProcessSampler } from '../sampling/process-sampler';
import { runGroup } from './group-teardown';
import { closeIdentities } from './identity-targets';
import { memberReader } from './member-stats';
import { OutcomeBook } from './outcome-book';
import { runOrphansOnly } from './orphans-teardown';
import type { RunContext } from './run-context';
import { targetRefusal } from './target-safety';
import type { SelfIdentity, TeardownOptions, TeardownTarget } from './teardown-types';

export type { ProcessIdentity, SelfIdentity, TeardownOptions, TeardownTarget } from './teardown-types';

const DEFAULT_KILL_WAIT_MS = 2000;
const DEFAULT_POLL_MS = 10;

/**
 * Stops a process group completely, and never the wrong process.
 *
 * Group mode signals -PGID (SIGTERM, up to graceMs, then SIGKILL): the group signal is the mechanism,
 * never a walk over descendant PIDs, which races with forks. Before each signal the PGID is proven to
 * still be the chosen group (a known pid + start key is still in it); otherwise the run is refused.
 * Orphans-only mode signals just the flagged orphans, each pinned by a pidfd (see identity-signal.ts).
 *
 * Escaped processes (left the group with setsid): without withEscaped they are listed with outcome
 * 'escaped-group' and not signalled; with withEscaped they are stopped by identity and carry their
 * final outcome (exited-after-term, killed, ...) with a reason starting "escaped the group".
 *
 * `signals[].target` is `-<pgid>` for a group signal and `<pid>@<startKey>` for an identity signal.
 */
export async function teardown(target: TeardownTarget, options: TeardownOptions): Promise<TeardownResult> {
  const startedAt = Date.now();
  const book = new OutcomeBook(
    { groupId: target.groupId, pgid: target.pgid, mode: options.mode, dryRun: options.dryRun, startedAt },
    options.onProgress,
  );
  const self = options.self ?? selfIdentity(options.sampler);
  if (!self) return book.result("could not read Corral's own process group, so nothing can be proven safe");
  const refusal = targetRefusal(target, options.mode, self);
  if (refusal) return book.result(refusal);

  const ctx: RunContext = {
    target,
    sampler: options.sampler,
    readMembers: memberReader(options.sampler),
    self,
    book,
    graceMs: Math.max(0, options.graceMs),
    killWaitMs: options.killWaitMs ?? DEFAULT_KILL_WAIT_MS,
    pollMs: options.pollMs ?? DEFAULT_POLL_MS,
    group: null,
    handles: new Map(),
    refused: null,
  };
  try {
    if (options.mode === 'group') await runGroup(ctx, options.withEscaped, options.dryRun);
    else await runOrphansOnly(ctx, options.withEscaped, options.dryRun);
  } finally {
    closeIdentities(ctx);
  }
  settleRemaining(ctx);
  return book.result(ctx.refused);
}

/** Whatever is still pending is alive: another user's process, state D, an unreaped zombie. */
function settleRemaining(ctx: RunContext): void {
  const euid = process.geteuid?.() ?? -1;
  for (const t of ctx.book.pending()) {
    if (ctx.refused) ctx.book.stillAlive(t, `not signalled further: ${ctx.refused}`);
    else if (euid !== 0 && t.uid !== null && t.uid !== euid && t.state !== 'Z') ctx.book.notPermitted(t);
    else ctx.book.stillAlive(t);
  }
}

function selfIdentity(sampler: ProcessSampler): SelfIdentity | null {
  const [me] = sampler.sampleSome([process.pid]);
  return me ? { pid: me.pid, pgid: me.pgid, sid: me.sid } : null;
}
