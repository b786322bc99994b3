import { ThreadedPoll } from '../../os/threaded-poll';
import { ThreadedExitWatch } from '../threaded-exit-watch';
import type { ExitWatchCoverage } from '../process-sampler';
import type { LibSystem } from './libsystem';
import {
  ESRCH,
  EV_ADD,
  EV_DELETE,
  EV_ERROR,
  EV_RECEIPT,
  EVFILT_PROC,
  KEVENT,
  KEVENT_SIZE,
  NOTE_EXIT,
  NOTE_FORK,
} from './proc-info-layout';

const NONE: readonly number[] = Object.freeze([]);

/**
 * Follows processes for their exit through one kqueue and EVFILT_PROC NOTE_EXIT knotes: one kevent(2)
 * says which have exited, however many are followed. A knote is attached to the process itself
 * (xnu bsd/kern/kern_event.c filt_procattach: kn_proc), so a pid reused later is never taken for it;
 * NOTE_EXIT alone needs no permission over the process (only NOTE_EXITSTATUS does), and a pid that is
 * gone or a zombie is refused with ESRCH (proc_find). Registrations ask for EV_RECEIPT, so each one's
 * error comes back in the event list instead of failing the whole call.
 *
 * waitInThread: a worker thread waits in poll(2) on the kqueue's own descriptor, which is readable while
 * events are pending (xnu bsd/kern/sys_generic.c poll_nocancel registers EVFILT_READ on each descriptor,
 * and kern_event.c kqueue_kqfilter accepts EVFILT_READ on a kqueue; kqueue_select counts its pending
 * events). The events themselves are collected on this thread, by exited() and forked().
 *
 * The knotes ask for NOTE_FORK too: fork (kern_fork.c) and posix_spawn (kern_exec.c) post it on the
 * parent, so a followed process's new child is looked for as it is born, not at the next poll. A knote
 * only sees forks after it was attached: each process counts as forked once when first followed.
 */
export class KqueueExitWatch extends ThreadedExitWatch {
  private readonly followed = new Map<number, number>();
  /** Followed processes found exited (or gone before they could be followed) and not yet handed out. */
  private exitedSince: number[] = [];
  /** Followed processes that forked (or were just followed) since forked() was last asked. */
  private forkedSince = new Set<number>();
  private kq = -1;
  private unavailable = false;
  private changes = Buffer.alloc(64 * KEVENT_SIZE);
  private events = Buffer.alloc(64 * KEVENT_SIZE);
  /** The worker found the kqueue readable and exited() has not collected since: no poll until it has. */
  private readyUncollected = false;

  /** `startKeyNow` reads the start time of whatever process holds a pid now (null: none). */
  constructor(
    private readonly lib: LibSystem,
    private readonly startKeyNow: (pid: number) => number | null,
  ) {
    super();
  }

  follow(targets: ReadonlyMap<number, number>): ExitWatchCoverage {
    if (this.unavailable) return 'unavailable';
    if (this.kq < 0) {
      this.kq = this.lib.kqueue();
      if (this.kq < 0) {
        this.unavailable = true;
        return 'unavailable';
      }
    }
    const wasEmpty = this.followed.size === 0;
    const drop = [...this.followed].filter(([pid, key]) => targets.get(pid) !== key).map(([pid]) => pid);
    for (const pid of drop) {
      this.followed.delete(pid);
      this.forkedSince.delete(pid);
    }
    this.apply(drop, EV_DELETE);
    const add = [...targets.keys()].filter((pid) => !this.followed.has(pid));
    let coverage: ExitWatchCoverage = 'all';
    const errors = this.apply(add, EV_ADD);
    for (const pid of add) {
      const error = errors.get(pid);
      if (error === ESRCH) this.exitedSince.push(pid);
      else if (error !== 0) coverage = 'some';
      // Attached by pid, so it is the process we mean only if that process still holds the pid now.
      else if (this.startKeyNow(pid) !== targets.get(pid)) {
        this.apply([pid], EV_DELETE);
        this.exitedSince.push(pid);
      } else {
        this.followed.set(pid, targets.get(pid)!);
        this.forkedSince.add(pid);
      }
    }
    if (this.poll && wasEmpty && this.followed.size > 0) this.poll.changed();
    // Some were gone before they could be followed, or are new (what did they fork before?): say so now.
    if (this.poll && (this.exitedSince.length > 0 || this.forkedSince.size > 0)) this.onExit?.();
    return coverage;
  }

  /**
   * Waits for exits in a worker thread and calls `onExit` on this thread once one is pending; exited()
   * then says which. False where that cannot be had (no pipe to wake the thread with, no kqueue yet).
   */
  waitInThread(onExit: () => void): boolean {
    if (this.unavailable) return false;
    this.onExit = onExit;
    if (this.poll) return true;
    if (this.kq < 0) {
      this.kq = this.lib.kqueue();
      if (this.kq < 0) return false;
    }
    const ends = this.lib.pipe();
    if (!ends) return false;
    this.poll = new ThreadedPoll(
      this.lib,
      { readFd: ends[0], writeFd: ends[1] },
      () => (this.followed.size > 0 && !this.readyUncollected ? [this.kq] : NONE),
      () => {
        this.readyUncollected = true;
        this.onExit?.();
      },
      () => {
        // The poll failed in the worker: exited() is called on the monitor's timer again.
        this.poll = null;
      },
    );
    this.poll.changed();
    return true;
  }

  /** Followed processes that exited since the last call; they are no longer followed. */
  exited(): readonly number[] {
    this.collectPending();
    if (this.exitedSince.length === 0) return NONE;
    const out = this.exitedSince;
    this.exitedSince = [];
    return out;
  }

  /** Followed processes that forked, or were first followed, since the last call. */
  forked(): readonly number[] {
    this.collectPending();
    if (this.forkedSince.size === 0) return NONE;
    const out = [...this.forkedSince];
    this.forkedSince.clear();
    return out;
  }

  /** Takes the kqueue's pending events into exitedSince and forkedSince. */
  private collectPending(): void {
    const collected = this.readyUncollected;
    this.readyUncollected = false;
    if (this.kq >= 0 && this.followed.size > 0) this.collect();
    // Collected now: the worker may wait again.
    if (collected) this.poll?.changed();
  }

  private collect(): void {
    const capacity = this.events.length / KEVENT_SIZE;
    for (;;) {
      const n = this.lib.kevent(this.kq, this.changes, 0, this.events, capacity);
      if (n <= 0) break;
      for (let i = 0; i < n; i++) {
        const at = i * KEVENT_SIZE;
        if (this.events.readInt16LE(at + KEVENT.filter) !== EVFILT_PROC) continue;
        const fflags = this.events.readUInt32LE(at + KEVENT.fflags);
        const pid = Number(this.events.readBigUInt64LE(at + KEVENT.ident));
        if ((fflags & NOTE_FORK) !== 0 && this.followed.has(pid)) this.forkedSince.add(pid);
        // The knote is one-shot once the process exits (filt_proc sets EV_ONESHOT on NOTE_EXIT).
        if ((fflags & NOTE_EXIT) !== 0 && this.followed.delete(pid)) {
          this.exitedSince.push(pid);
          this.forkedSince.delete(pid);
        }
      }
      if (n < capacity) break;
    }
  }

  get size(): number {
    return this.followed.size;
  }

  close(): void {
    this.stopWaiting();
    this.followed.clear();
    this.forkedSince.clear();
    if (this.kq >= 0) this.lib.close(this.kq);
    this.kq = -1;
  }

  /** Registers or deletes NOTE_EXIT | NOTE_FORK knotes for `pids`; returns each pid's errno (0: done). */
  private apply(pids: readonly number[], action: number): Map<number, number> {
    const result = new Map<number, number>();
    if (pids.length === 0) return result;
    if (this.changes.length < pids.length * KEVENT_SIZE)
      this.changes = Buffer.alloc(pids.length * 2 * KEVENT_SIZE);
    if (this.events.length < pids.length * KEVENT_SIZE)
      this.events = Buffer.alloc(pids.length * 2 * KEVENT_SIZE);
    this.changes.fill(0, 0, pids.length * KEVENT_SIZE);
    pids.forEach((pid, i) => {
      const at = i * KEVENT_SIZE;
      this.changes.writeBigUInt64LE(BigInt(pid), at + KEVENT.ident);
      this.changes.writeInt16LE(EVFILT_PROC, at + KEVENT.filter);
      this.changes.writeUInt16LE(action | EV_RECEIPT, at + KEVENT.flags);
      this.changes.writeUInt32LE((NOTE_EXIT | NOTE_FORK) >>> 0, at + KEVENT.fflags);
    });
    const n = this.lib.kevent(this.kq, this.changes, pids.length, this.events, pids.length);
    for (let i = 0; i < Math.max(0, n); i++) {
      const at = i * KEVENT_SIZE;
      const flags = this.events.readUInt16LE(at + KEVENT.flags);
      const pid = Number(this.events.readBigUInt64LE(at + KEVENT.ident));
      // EV_RECEIPT makes every receipt an EV_ERROR event (data 0 when it worked); anything else is an exit.
      if (flags & EV_ERROR) result.set(pid, Number(this.events.readBigInt64LE(at + KEVENT.data)));
      else if (this.followed.delete(pid)) this.exitedSince.push(pid);
    }
    // A receipt missing (the call failed as a whole): treat the registration as not done.
    for (const pid of pids) if (!result.has(pid)) result.set(pid, -1);
    return result;
  }
}
