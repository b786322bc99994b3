import { signalGroup, verifyGroup } from './group-signal';
import { signalIdentities } from './identity-targets';
import {
  hasPendingGroupMember,
  identityOf,
  indexByPid,
  observe,
  pollPending,
  scanGroup,
  watchUntil,
} from './observe';
import { previousPhase, type RunContext } from './run-context';
import type { SignalName } from './teardown-types';

/** SIGTERM, wait up to the grace, SIGKILL whatever remains, wait, confirm. */
export async function runPhases(ctx: RunContext): Promise<void> {
  signalPhase(ctx, 'SIGTERM');
  const termAt = Date.now();
  ctx.book.progress();
  if (ctx.refused) return;
  await watchUntil(ctx, 'SIGTERM', termAt + ctx.graceMs);
  confirm(ctx, 'SIGTERM');
  if (ctx.refused || ctx.book.pending().length === 0) return;

  signalPhase(ctx, 'SIGKILL');
  const killAt = Date.now();
  ctx.book.progress();
  if (ctx.refused) return;
  await watchUntil(ctx, 'SIGKILL', killAt + ctx.killWaitMs);
  confirm(ctx, 'SIGKILL');
}

function signalPhase(ctx: RunContext, signal: SignalName): void {
  const group = ctx.group;
  if (group && hasPendingGroupMember(ctx)) {
    const pending = ctx.book.pending().filter((t) => t.via === 'group');
    const records = ctx.sampler.sampleSome(pending.map((t) => t.identity.pid));
    const verified = verifyGroup(group, records);
    if (!verified) {
      // No known member is left in the PGID: they exited or moved. Nothing to prove, nothing to signal.
      observe(ctx, indexByPid(records), previousPhase(signal));
    } else {
      const result = signalGroup(verified, signal);
      ctx.book.recordSignal(signal, `-${group.pgid}`, result);
      const stillPending = ctx.book.pending().filter((t) => t.via === 'group');
      if (result === 'EPERM') for (const t of stillPending) ctx.book.notPermitted(t);
      else if (result === 'ESRCH') for (const t of stillPending) ctx.book.markDead(t, previousPhase(signal));
      else if (result === 'error')
        ctx.refused = `kill(-${group.pgid}, ${signal}) failed; nothing more was signalled`;
    }
  }
  if (!ctx.refused) signalIdentities(ctx, signal);
}

/** After a wait: one last look at the pending processes, and in group mode a full scan for the PGID. */
function confirm(ctx: RunContext, phase: SignalName): void {
  pollPending(ctx, phase);
  if (!ctx.group) return;
  const unproven = scanGroup(ctx, phase);
  if (unproven.length === 0) return;
  const pgid = ctx.group.pgid;
  for (const record of unproven) {
    const entry = ctx.book.track(identityOf(record), record, 'group');
    ctx.book.stillAlive(
      entry,
      `in PGID ${pgid}, but joined it after Corral last proved the PGID was this group`,
    );
  }
  if (phase === 'SIGKILL') return;
  ctx.refused =
    `PGID ${pgid} still holds ${unproven.length} process(es), but none Corral knew from this group is left ` +
    'to prove the PGID was not reused; nothing more was signalled';
}
