import type { SignalRecord, TeardownProcessOutcome, TeardownResult } from '../../../shared/model';
import type { ProcessRecord } from '../model/process-record';
import { commandOf } from '../analysis/grouping';
import { identityKey } from '../model/identity';
import type { MemberStat } from './member-stats';
import type { ProcessIdentity, SignalName, SignalResult } from './teardown-types';
import { userName } from './user-names';

/** One process Corral is tearing down, or listing alongside. */
export interface Tracked {
  identity: ProcessIdentity;
  uid: number | null;
  state: string | null;
  ppid: number | null;
  /** How the teardown stops it; null when it is only listed (not counted in `clean`). */
  via: 'group' | 'identity' | null;
  /** Prefixed to the outcome's reason (e.g. that it escaped the group). */
  note?: string;
  /** The signal phase in which it was first seen dead (zombie or gone); null = before any signal. */
  diedIn: SignalName | null | undefined;
  outcome: TeardownProcessOutcome | null;
}

const GONE = new Set(['exited-after-term', 'killed', 'already-gone']);

/** Keeps every process's outcome and every signal sent, and renders them as a TeardownResult. */
export class OutcomeBook {
  readonly signals: SignalRecord[] = [];
  private readonly tracked = new Map<string, Tracked>();
  private readonly order: string[] = [];

  constructor(
    private readonly base: Pick<TeardownResult, 'groupId' | 'pgid' | 'mode' | 'dryRun' | 'startedAt'>,
    private readonly onProgress?: (partial: TeardownResult) => void,
  ) {}

  /** Adds a process (once; later calls refresh what is known about it). */
  track(
    identity: ProcessIdentity,
    record: ProcessRecord | null,
    via: Tracked['via'],
    note?: string,
  ): Tracked {
    const key = identityKey(identity.pid, identity.startKey);
    let entry = this.tracked.get(key);
    if (!entry) {
      entry = { identity, uid: null, state: null, ppid: null, via, note, diedIn: undefined, outcome: null };
      this.tracked.set(key, entry);
      this.order.push(key);
    }
    if (record) this.observe(entry, record);
    if (!entry.identity.command && record) entry.identity = { ...entry.identity, command: commandOf(record) };
    return entry;
  }

  get(pid: number, startKey: number): Tracked | undefined {
    return this.tracked.get(identityKey(pid, startKey));
  }

  all(): Tracked[] {
    return this.order.map((key) => this.tracked.get(key) as Tracked);
  }

  /** Targeted processes with no outcome yet. */
  pending(): Tracked[] {
    return this.all().filter((t) => t.via !== null && !t.outcome);
  }

  observe(entry: Tracked, record: MemberStat): void {
    if (record.uid !== undefined) entry.uid = record.uid;
    entry.state = record.state;
    entry.ppid = record.ppid;
  }

  /** It is dead but still in the table (a zombie): remember which signal ended it. */
  markDead(entry: Tracked, phase: SignalName | null): void {
    if (entry.diedIn === undefined) entry.diedIn = phase;
  }

  /** It is gone from the table. */
  markGone(entry: Tracked, phase: SignalName | null): void {
    if (entry.outcome) return;
    this.markDead(entry, phase);
    const diedIn = entry.diedIn ?? null;
    if (diedIn === null) this.settle(entry, { outcome: 'already-gone' });
    else {
      this.settle(entry, {
        outcome: diedIn === 'SIGTERM' ? 'exited-after-term' : 'killed',
        endedBy: diedIn,
        goneAfterMs: Date.now() - this.base.startedAt,
      });
    }
  }

  settle(entry: Tracked, outcome: Omit<TeardownProcessOutcome, 'pid' | 'startKey' | 'command'>): void {
    if (entry.outcome) return;
    const reason = [entry.note, outcome.reason].filter(Boolean).join('; ');
    entry.outcome = { ...this.outcomeBase(entry), ...outcome, ...(reason ? { reason } : {}) };
  }

  notPermitted(entry: Tracked): void {
    const uid = entry.uid;
    this.settle(entry, {
      outcome: 'not-permitted',
      owner: uid === null ? undefined : { uid, user: userName(uid) },
      state: entry.state ?? undefined,
      reason: 'EPERM: the process belongs to another user',
    });
  }

  /** Whatever is still without an outcome after the last deadline is alive, reported as it is. */
  stillAlive(entry: Tracked, reason?: string): void {
    const zombie = entry.state === 'Z';
    const why =
      reason ??
      (zombie
        ? `zombie: it exited but its parent (PID ${entry.ppid ?? '?'}) has not reaped it`
        : entry.state === 'D'
          ? 'in uninterruptible sleep (state D): it dies when its I/O completes'
          : 'still running after SIGKILL');
    this.settle(entry, { outcome: 'still-alive', state: entry.state ?? undefined, reason: why });
  }

  recordSignal(signal: SignalName | 'SIGCONT', target: string, result: SignalResult): void {
    this.signals.push({ signal, target, at: Date.now(), result });
  }

  result(refused: string | null): TeardownResult {
    const processes = this.all().map(
      (t): TeardownProcessOutcome =>
        t.outcome ?? {
          ...this.outcomeBase(t),
          outcome: 'still-alive',
          state: t.state ?? undefined,
          reason: 'in progress',
        },
    );
    const targeted = this.all().filter((t) => t.via !== null);
    const clean =
      refused === null &&
      !this.base.dryRun &&
      targeted.every((t) => t.outcome && GONE.has(t.outcome.outcome));
    return { ...this.base, refused, finishedAt: Date.now(), signals: [...this.signals], processes, clean };
  }

  progress(): void {
    this.onProgress?.(this.result(null));
  }

  private outcomeBase(entry: Tracked): Pick<TeardownProcessOutcome, 'pid' | 'startKey' | 'command'> {
    return { pid: entry.identity.pid, startKey: entry.identity.startKey, command: entry.identity.command };
  }
}
