import type { ProcessRecord } from '../model/process-record';
import type { MemberStat } from './member-stats';
import { commandOf } from '../analysis/grouping';
import type { Tracked } from './outcome-book';
import { groupHasMembers } from './group-signal';
import { sleep, type RunContext } from './run-context';
import type { SignalName } from './teardown-types';

/** A full scan for the PGID only this often while waiting: it enrols members forked since the last one. */
const SCAN_EVERY_MS = 500;
/** Between probes, the members themselves are read at most this often (a large group costs a read each). */
const READ_EVERY_MS = 100;

/** Applies what the table shows now to the processes still pending. Returns whether anything changed. */
export function observe(
  ctx: RunContext,
  byPid: Map<number, MemberStat>,
  phase: SignalName | null,
  entries: Tracked[] = ctx.book.pending(),
): boolean {
  let changed = false;
  for (const entry of entries) {
    if (entry.outcome) continue;
    const record = byPid.get(entry.identity.pid);
    if (!record || record.startKey !== entry.identity.startKey) {
      ctx.book.markGone(entry, phase);
      changed = true;
      continue;
    }
    ctx.book.observe(entry, record);
    if (entry.via === 'group' && ctx.group && leftGroup(record, ctx.group.pgid)) {
      ctx.book.settle(entry, {
        outcome: 'escaped-group',
        state: record.state,
        reason: `left the process group during teardown (now PGID ${record.pgid}); not signalled further`,
      });
      changed = true;
    } else if (record.state === 'Z' && entry.diedIn === undefined) {
      ctx.book.markDead(entry, phase);
      changed = true;
    }
  }
  return changed;
}

/**
 * True when the process now sits in another group. /proc shows pgid and sid as -1 for a task that is
 * already past releasing its signal handlers (exiting): that is dying, not leaving.
 */
export function leftGroup(record: MemberStat, pgid: number): boolean {
  return record.pgid >= 0 && record.pgid !== pgid;
}

export function indexByPid<T extends MemberStat>(records: T[]): Map<number, T> {
  return new Map(records.map((r) => [r.pid, r]));
}

export function pollPending(ctx: RunContext, phase: SignalName | null): boolean {
  const pids = ctx.book.pending().map((t) => t.identity.pid);
  return observe(ctx, indexByPid(ctx.readMembers(pids)), phase);
}

/**
 * Full scan of the table for the group's PGID. While a known identity is still in the PGID, every
 * other process there belongs to the group and is enrolled; otherwise the ones found are returned as
 * unproven (they may be a new group that reused the number).
 */
export function scanGroup(ctx: RunContext, phase: SignalName | null): ProcessRecord[] {
  const group = ctx.group;
  if (!group) return [];
  const all = ctx.sampler.sampleAll();
  const inGroup = all.filter((r) => r.pgid === group.pgid);
  const proven = group.enrol(inGroup);
  const unproven: ProcessRecord[] = [];
  for (const r of inGroup) {
    if (ctx.book.get(r.pid, r.startKey)) continue;
    if (proven) ctx.book.track(identityOf(r), r, 'group');
    else unproven.push(r);
  }
  observe(ctx, indexByPid(all), phase);
  return unproven;
}

export function identityOf(record: ProcessRecord): { pid: number; startKey: number; command: string } {
  return { pid: record.pid, startKey: record.startKey, command: commandOf(record) };
}

/**
 * Polls the pending processes every pollMs until none is pending or the deadline passes. The caller
 * takes one last look at the deadline (confirm), so the loop never polls twice in a row there.
 */
export async function watchUntil(ctx: RunContext, phase: SignalName, deadline: number): Promise<void> {
  let lastScan = Date.now();
  // The signal was sent just after a member was read to prove the group: probe first. Reading a large
  // group while it dies only competes with its dying; the read comes once the probe finds it empty.
  let lastRead = Date.now();
  let pollCost = 0;
  for (;;) {
    if (ctx.book.pending().length === 0) return;
    const started = Date.now();
    // A poll that would end past the deadline only delays the next signal: the caller looks at it.
    if (started + pollCost >= deadline) return sleep(Math.max(0, deadline - started));
    // In group mode a signal-0 probe says whether anyone is left; members are read when it says no,
    // at the last moment before the deadline, and otherwise every READ_EVERY_MS.
    const probeOnly =
      ctx.group !== null &&
      ctx.book.pending().every((t) => t.via === 'group') &&
      groupHasMembers(ctx.group.pgid) &&
      started - lastRead < Math.max(READ_EVERY_MS, 2 * pollCost) &&
      started + 2 * pollCost + ctx.pollMs < deadline;
    if (probeOnly) {
      await sleep(Math.min(ctx.pollMs, Math.max(0, deadline - Date.now())));
      continue;
    }
    lastRead = started;
    if (pollPending(ctx, phase)) ctx.book.progress();
    if (ctx.book.pending().length === 0) return;
    const now = Date.now();
    pollCost = now - started;
    if (
      ctx.group &&
      now - lastScan >= SCAN_EVERY_MS &&
      deadline - now > SCAN_EVERY_MS &&
      hasPendingGroupMember(ctx)
    ) {
      scanGroup(ctx, phase);
      lastScan = Date.now();
    }
    await sleep(Math.min(ctx.pollMs, Math.max(0, deadline - Date.now())));
  }
}

export function hasPendingGroupMember(ctx: RunContext): boolean {
  return ctx.book.pending().some((t: Tracked) => t.via === 'group');
}
