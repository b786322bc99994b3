import { openIdentity } from './identity-signal';
import { previousPhase, type RunContext } from './run-context';
import { identityRefusal } from './target-safety';
import type { ProcessIdentity, SignalName } from './teardown-types';

/**
 * Pins each identity for signalling one by one (orphans-only, escaped processes). In a dry run it
 * only checks which of them are still alive.
 */
export function openIdentityTargets(
  ctx: RunContext,
  identities: ProcessIdentity[],
  { dryRun, note }: { dryRun: boolean; note?: string },
): void {
  for (const identity of identities) {
    if (ctx.book.get(identity.pid, identity.startKey)) continue;
    const refusal = identityRefusal(identity, ctx.self);
    if (refusal) {
      ctx.book.settle(ctx.book.track(identity, null, null, note), { outcome: 'skipped', reason: refusal });
      continue;
    }
    if (dryRun) {
      const [record] = ctx.sampler.sampleSome([identity.pid]);
      const entry = ctx.book.track(identity, null, null, note);
      if (record && record.startKey === identity.startKey) {
        ctx.book.observe(entry, record);
        ctx.book.settle(entry, { outcome: 'skipped', state: record.state, reason: 'dry run' });
      } else ctx.book.markGone(entry, null);
      continue;
    }
    const opened = openIdentity(ctx.sampler, identity);
    if ('gone' in opened) ctx.book.markGone(ctx.book.track(identity, null, 'identity', note), null);
    else if ('error' in opened) {
      ctx.book.stillAlive(ctx.book.track(identity, null, 'identity', note), `not signalled: ${opened.error}`);
    } else {
      const entry = ctx.book.track(identity, opened.record, 'identity', note);
      if (opened.record.state === 'Z') ctx.book.markDead(entry, null);
      ctx.handles.set(entry, opened.handle);
    }
  }
}

/** Sends `signal` to every pinned identity that is still pending. */
export function signalIdentities(ctx: RunContext, signal: SignalName): void {
  for (const [entry, handle] of ctx.handles) {
    if (entry.outcome) continue;
    const result = handle.signal(signal);
    ctx.book.recordSignal(signal, `${entry.identity.pid}@${entry.identity.startKey}`, result);
    if (result === 'EPERM') ctx.book.notPermitted(entry);
    else if (result === 'ESRCH') ctx.book.markDead(entry, previousPhase(signal));
  }
}

export function closeIdentities(ctx: RunContext): void {
  for (const handle of ctx.handles.values()) handle.close();
  ctx.handles.clear();
}

/** Lists escaped processes without signalling them (no with-escaped). */
export function listEscaped(ctx: RunContext, escaped: ProcessIdentity[], reason: string): void {
  const records = new Map(ctx.sampler.sampleSome(escaped.map((e) => e.pid)).map((r) => [r.pid, r]));
  for (const identity of escaped) {
    if (ctx.book.get(identity.pid, identity.startKey)) continue;
    const record = records.get(identity.pid);
    const entry = ctx.book.track(identity, null, null);
    if (record && record.startKey === identity.startKey) {
      ctx.book.observe(entry, record);
      ctx.book.settle(entry, { outcome: 'escaped-group', state: record.state, reason });
    } else ctx.book.markGone(entry, null);
  }
}
