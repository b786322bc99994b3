import type { StopGroupRequest } from '../../../shared/contract';
import type { GroupView, SignalRecord, TeardownResult } from '../../../shared/model';
import type { ProcessSampler } from '../sampling/process-sampler';
import { knownIdentities, enrolGroup } from './group-teardown';
import { closeIdentities } from './identity-targets';
import { memberReader } from './member-stats';
import { watchUntil } from './observe';
import { OutcomeBook } from './outcome-book';
import { pinOrphans } from './orphans-teardown';
import { confirmGone, signalAll } from './phases';
import { resolveGroupId, type GroupResolution, type KnownMember } from './resolve-group-id';
import type { Refusal, RunContext } from './run-context';
import { targetRefusal } from './target-safety';
import { teardownTarget } from './teardown-target';
import type { SelfIdentity, TeardownOptions, TeardownTarget } from './teardown-types';

/*
 * A stop, top to bottom. Every front end (CLI, IPC, serve, policies, sessions) stops a group through
 * stopAndRecord, whose phases are named steps below; the details are in the files each step names.
 *
 *   resolveTarget   the id the user named still denotes a live group (resolve-group-id.ts), or nothing
 *   recordRequest   the recorder hears of the stop, before any signal (never on a dry run)
 *   teardown:
 *     safetyChecks  never PGID 0 or 1, Corral's own group or session, an agent's group or a person's
 *                   shell, a bad id (target-safety.ts)
 *     chooseTargets group: a fresh read proves the PGID is still the group, members are enrolled
 *                   (group-teardown.ts); orphans-only: each orphan pinned by a pidfd (orphans-teardown.ts)
 *     term          SIGTERM (and SIGCONT) to -PGID, proven again just before; to each pinned identity
 *     grace         watch the pending processes until they are gone or graceMs passes (observe.ts)
 *     kill          SIGKILL to whatever remains, proven again just before
 *     confirmGone   wait for the killed to be gone, one last look, a scan for the PGID (phases.ts)
 *     settle        whatever is still pending is reported as it is (alive, another user's)
 *   recordSignals   each signal reaches the recorder once, as soon as it is sent, and at the end
 *
 * ESRCH from kill(-PGID) means the group is already gone: that is a clean end, not an error.
 */

export type { ProcessIdentity, SelfIdentity, TeardownOptions, TeardownTarget } from './teardown-types';

export interface StopOptions {
  graceMs: number;
  sampler: ProcessSampler;
  /**
   * Processes Corral saw in the named group (the monitor's memory of it, or the incident history):
   * they prove an id whose anchor has since exited.
   */
  remembered?: readonly KnownMember[];
  onProgress?: (partial: TeardownResult) => void;
}

/**
 * Who hears of a stop while it happens: the monitor (the group's timeline and incident), a policy's
 * journal, or a note in the data directory for the Corral that records incidents (stop-request-note.ts).
 */
export interface StopRecorder {
  /** The group is proven and is about to get its first signal. Never called on a dry run. */
  stopping(group: GroupView): void;
  /** The signals sent since the last call, as soon as they are sent; `all` holds every one so far. */
  signalled(group: GroupView, fresh: readonly SignalRecord[], all: readonly SignalRecord[]): void;
}

/** Why nothing was signalled: the group is already gone, its PGID was reused, or it cannot be proven. */
export type StopRefusal = Exclude<GroupResolution, { kind: 'found' }>;

export type StopOutcome =
  { refused: StopRefusal } | { refused: null; group: GroupView; result: TeardownResult };

const DEFAULT_KILL_WAIT_MS = 2000;
const DEFAULT_POLL_MS = 10;

/**
 * The one stop path: proves that the id the user named still denotes a live group, tells `recorder`
 * before the first signal, tears the group down in the request's mode, and hands `recorder` every
 * signal sent as it is sent.
 */
export async function stopAndRecord(
  request: StopGroupRequest,
  groups: readonly GroupView[],
  options: StopOptions,
  recorder: StopRecorder,
): Promise<StopOutcome> {
  // resolveTarget
  const resolved = resolveGroupId(request.groupId, groups, options.remembered);
  if (resolved.kind !== 'found') return { refused: resolved };
  const group = resolved.group;
  const dryRun = request.dryRun ?? false;

  // recordRequest
  if (!dryRun) recorder.stopping(group);
  const recordSignals = dryRun ? () => {} : signalsOnce(group, recorder);

  const result = await teardown(teardownTarget(request.groupId, group, groups), {
    graceMs: options.graceMs,
    mode: request.orphansOnly ? 'orphans-only' : 'group',
    withEscaped: request.withEscaped ?? false,
    dryRun,
    sampler: options.sampler,
    onProgress: (partial) => {
      recordSignals(partial.signals);
      options.onProgress?.(partial);
    },
  });

  // recordSignals: those sent since the last progress report
  recordSignals(result.signals);
  return { refused: null, group, result };
}

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
  const book = new OutcomeBook(
    {
      groupId: target.groupId,
      pgid: target.pgid,
      mode: options.mode,
      dryRun: options.dryRun,
      startedAt: Date.now(),
    },
    options.onProgress,
  );

  // safetyChecks: pure, on the target as the caller described it
  const self = options.self ?? selfIdentity(options.sampler);
  if (!self) return book.result("could not read Corral's own process group, so nothing can be proven safe");
  const refusal = targetRefusal(target, options.mode, self);
  if (refusal) return book.result(refusal);

  const group = options.mode === 'group' ? knownIdentities(target) : null;
  const ctx: RunContext = {
    target,
    sampler: options.sampler,
    readMembers: memberReader(options.sampler),
    self,
    book,
    graceMs: Math.max(0, options.graceMs),
    killWaitMs: options.killWaitMs ?? DEFAULT_KILL_WAIT_MS,
    pollMs: options.pollMs ?? DEFAULT_POLL_MS,
    group,
    handles: new Map(),
  };
  let refused: Refusal;
  try {
    // chooseTargets
    refused = group
      ? enrolGroup(ctx, group, options.withEscaped, options.dryRun)
      : pinOrphans(ctx, options.withEscaped, options.dryRun);
    if (refused === null && options.dryRun) settleDryRun(book);
    else if (refused === null) refused = await termGraceKill(ctx);
  } finally {
    closeIdentities(ctx);
  }

  // settle
  settleRemaining(ctx, refused);
  return book.result(refused);
}

/** term → grace → kill → confirmGone. Returns why signalling stopped early, if it did. */
async function termGraceKill(ctx: RunContext): Promise<Refusal> {
  const { book } = ctx;
  // term
  let refused = signalAll(ctx, 'SIGTERM');
  const termAt = Date.now();
  book.progress();
  if (refused) return refused;

  // grace
  await watchUntil(ctx, 'SIGTERM', termAt + ctx.graceMs);
  // With processes left at the deadline, SIGKILL goes first: watchUntil's last look ended at the
  // deadline, and another full read of a large group would only delay the KILL past it.
  if (book.pending().length === 0) {
    refused = confirmGone(ctx, 'SIGTERM');
    if (refused || book.pending().length === 0) return refused;
  }

  // kill
  refused = signalAll(ctx, 'SIGKILL');
  const killAt = Date.now();
  book.progress();
  if (refused) return refused;

  // confirmGone
  await watchUntil(ctx, 'SIGKILL', killAt + ctx.killWaitMs);
  return confirmGone(ctx, 'SIGKILL');
}

/** A dry run signals nothing: every process it would have signalled is skipped. */
function settleDryRun(book: OutcomeBook): void {
  for (const t of book.pending())
    book.settle(t, { outcome: 'skipped', state: t.state ?? undefined, reason: 'dry run' });
}

/** Whatever is still pending is alive: another user's process, state D, an unreaped zombie. */
function settleRemaining(ctx: RunContext, refused: Refusal): void {
  const euid = process.geteuid?.() ?? -1;
  for (const t of ctx.book.pending()) {
    if (refused) ctx.book.stillAlive(t, `not signalled further: ${refused}`);
    else if (euid !== 0 && t.uid !== null && t.uid !== euid && t.state !== 'Z') ctx.book.notPermitted(t);
    else ctx.book.stillAlive(t);
  }
}

/** Hands the recorder each signal once: those a report holds beyond the last one it was given. */
function signalsOnce(group: GroupView, recorder: StopRecorder): (signals: readonly SignalRecord[]) => void {
  let told = 0;
  return (signals) => {
    if (signals.length <= told) return;
    recorder.signalled(group, signals.slice(told), signals);
    told = signals.length;
  };
}

function selfIdentity(sampler: ProcessSampler): SelfIdentity | null {
  const [me] = sampler.sampleSome([process.pid]);
  return me ? { pid: me.pid, pgid: me.pgid, sid: me.sid } : null;
}
