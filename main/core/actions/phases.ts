import {
  groupHasMembers,
  signalGroup,
  verifyGroup,
  type GroupIdentities,
  type VerifiedGroup,
} from './group-signal';
import { signalIdentities } from './identity-targets';
import { hasPendingGroupMember, identityOf, indexByPid, observe, pollPending, scanGroup } from './observe';
import type { Tracked } from './outcome-book';
import { previousPhase, type Refusal, type RunContext } from './run-context';
import type { SignalName } from './teardown-types';

/**
 * One signal to everyone still pending: to -PGID once a member read just now proves it is still the
 * group (never otherwise), then to each pinned identity. Returns why signalling must stop, if it must.
 */
export function signalAll(ctx: RunContext, signal: SignalName): Refusal {
  let refused: Refusal = null;
  const group = ctx.group;
  if (group && hasPendingGroupMember(ctx)) {
    const verified = proveNow(ctx, signal);
    if (verified) {
      const result = signalGroup(verified, signal);
      ctx.book.recordSignal(signal, `-${group.pgid}`, result);
      // As systemd does: a stopped member cannot act on SIGTERM until it is continued.
      if (signal === 'SIGTERM' && result === 'sent') {
        ctx.book.recordSignal('SIGCONT', `-${group.pgid}`, signalGroup(verified, 'SIGCONT'));
      }
      const stillPending = ctx.book.pending().filter((t) => t.via === 'group');
      if (result === 'EPERM') notPermittedAfterRereading(ctx, stillPending, signal);
      else if (result === 'ESRCH') for (const t of stillPending) ctx.book.markDead(t, previousPhase(signal));
      else if (result === 'error')
        refused = `kill(-${group.pgid}, ${signal}) failed; nothing more was signalled`;
    }
  }
  if (!refused) signalIdentities(ctx, signal);
  return refused;
}

/**
 * kill(-pgid) said EPERM. On macOS that is also the answer when every member left is a zombie (xnu
 * bsd/kern/kern_sig.c, killpg1: zombies are filtered out of the group walk, and `nfound == 0` gives
 * EPERM for a POSIX kill). So the members are read again first: those gone or now zombies are dead, and
 * only a live one is another user's.
 */
function notPermittedAfterRereading(ctx: RunContext, entries: Tracked[], signal: SignalName): void {
  const records = indexByPid(ctx.readMembers(entries.map((t) => t.identity.pid)));
  observe(ctx, records, previousPhase(signal), entries);
  for (const t of entries) if (!t.outcome && t.state !== 'Z') ctx.book.notPermitted(t);
}

/**
 * Re-reads pending members one at a time until one proves the PGID is still the group (usually the
 * first). Null when none is left in it: they exited or moved, so there is nothing to prove or signal.
 */
function proveNow(ctx: RunContext, signal: SignalName): VerifiedGroup | null {
  const group = ctx.group as GroupIdentities;
  for (const t of ctx.book.pending().filter((p) => p.via === 'group')) {
    const records = ctx.readMembers([t.identity.pid]);
    const verified = verifyGroup(group, records);
    if (verified) return verified;
    observe(ctx, indexByPid(records), previousPhase(signal), [t]);
  }
  return null;
}

/**
 * After a wait: one last look at the pending processes, and in group mode a full scan for the PGID.
 * Refuses to go on when the PGID holds processes none of which can prove it is still the group.
 */
export function confirmGone(ctx: RunContext, phase: SignalName): Refusal {
  pollPending(ctx, phase);
  // While known members remain, SIGKILL to the PGID reaches any member forked since the last scan;
  // the full scan waits for the end, so it does not delay the SIGKILL.
  if (!ctx.group || (phase === 'SIGTERM' && hasPendingGroupMember(ctx))) return null;
  // The kernel says no process holds the PGID now: there is nobody left to find by scanning the table.
  if (!groupHasMembers(ctx.group.pgid)) return null;
  const unproven = scanGroup(ctx, phase);
  if (unproven.length === 0) return null;
  const pgid = ctx.group.pgid;
  for (const record of unproven) {
    const entry = ctx.book.track(identityOf(record), record, 'group');
    ctx.book.stillAlive(
      entry,
      `in PGID ${pgid}, but joined it after Corral last proved the PGID was this group`,
    );
  }
  if (phase === 'SIGKILL') return null;
  return (
    `PGID ${pgid} still holds ${unproven.length} process(es), but none Corral knew from this group is left ` +
    'to prove the PGID was not reused; nothing more was signalled'
  );
}
