import { pidfdClose, pidfdOpen, pollNow } from '../../os/pidfd';
import { POLLFD_SIZE, pollfdReady, setPollfd } from '../../os/pollfd';
import { openLinuxThreadedPoll } from '../../os/linux-threaded-poll';
import { ThreadedExitWatch } from '../threaded-exit-watch';
import type { ExitWatchCoverage } from '../process-sampler';
import { keptFds } from './kept-fds';

const NONE: readonly number[] = Object.freeze([]);

/**
 * Follows processes for their exit through pidfds: one poll(2) says which of them have exited, however
 * many are followed, where reading every parent's child list costs a read per parent. A pidfd stays
 * bound to the process it was opened on, so a pid reused by a newer process is never taken for it.
 */
export class PidfdExitWatch extends ThreadedExitWatch {
  private readonly followed = new Map<number, { startKey: number; fd: number }>();
  /** pid of each pollfd slot, in slot order. */
  private slots: number[] = [];
  private fds = Buffer.alloc(0);
  private slotsStale = false;
  /** Whether the followed set changed in this follow() call: a waiting worker must take the new set. */
  private setChanged = false;
  /** Targets that had already exited (or lost their pid to a newer process) when asked to follow them. */
  private goneBeforeFollowed: number[] = [];
  private unavailable = false;
  /** Followed processes the worker's poll found exited, kept until exited() hands them over. */
  private exitedInThread: number[] = [];
  private readonly pidOfFd = new Map<number, number>();

  /**
   * `startKeyNow` reads the start time of whatever process holds a pid now (null: none); it throws when it
   * could not look (out of descriptors).
   */
  constructor(private readonly startKeyNow: (pid: number) => number | null) {
    super();
  }

  /** Follows exactly these processes (pid → startKey) from now on. */
  follow(targets: ReadonlyMap<number, number>): ExitWatchCoverage {
    if (this.unavailable) return 'unavailable';
    this.setChanged = false;
    const coverage = this.followTargets(targets);
    if (this.setChanged) this.poll?.changed();
    // Some were gone before they could be followed: say so now, not at the next look.
    if (this.goneBeforeFollowed.length > 0 && this.poll) this.signalExit();
    return coverage;
  }

  private followTargets(targets: ReadonlyMap<number, number>): ExitWatchCoverage {
    for (const [pid, followed] of this.followed) if (targets.get(pid) !== followed.startKey) this.drop(pid);
    let coverage: ExitWatchCoverage = 'all';
    for (const [pid, startKey] of targets) {
      if (this.followed.has(pid)) continue;
      if (keptFds.total >= keptFds.budget) {
        coverage = 'some';
        continue;
      }
      const opened = pidfdOpen(pid);
      if ('error' in opened) {
        if (opened.error === 'unavailable') {
          this.unavailable = true;
          this.close();
          return 'unavailable';
        }
        if (opened.error === 'ESRCH') this.goneBeforeFollowed.push(pid);
        else coverage = 'some';
        continue;
      }
      // Opened by pid, so it is the process we mean only if that process still holds the pid now.
      const now = this.startKeyOrUnknown(pid);
      if (now !== startKey) {
        pidfdClose(opened.fd);
        // Not looked at (no descriptor to read its stat with): left to the child lists, never taken for gone.
        if (now === 'unknown') coverage = 'some';
        else this.goneBeforeFollowed.push(pid);
        continue;
      }
      this.followed.set(pid, { startKey, fd: opened.fd });
      this.pidOfFd.set(opened.fd, pid);
      keptFds.total++;
      this.slotsStale = true;
      this.setChanged = true;
    }
    return coverage;
  }

  private startKeyOrUnknown(pid: number): number | null | 'unknown' {
    try {
      return this.startKeyNow(pid);
    } catch {
      return 'unknown';
    }
  }

  /**
   * From now on a blocking poll in a worker thread waits for the followed processes' exits, and `onExit`
   * is called on this thread soon after one (then exited() returns it). False where that cannot be (no
   * pidfds, no eventfd): exited() then keeps polling without waiting. `stopWaiting` ends it.
   */
  waitInThread(onExit: () => void): boolean {
    if (this.unavailable) return false;
    this.onExit = onExit;
    if (this.poll) return true;
    const waiter = openLinuxThreadedPoll(
      () => this.followedFds(),
      (fds) => this.exitedFds(fds),
      () => {
        // The poll failed in the worker: exited() polls again on the monitor's timer.
        this.poll = null;
      },
    );
    if (!waiter) return false;
    this.poll = waiter;
    keptFds.total++;
    void waiter.whenClosed().then(() => keptFds.total--);
    waiter.changed();
    return true;
  }

  private followedFds(): number[] {
    const fds: number[] = [];
    for (const followed of this.followed.values()) fds.push(followed.fd);
    return fds;
  }

  private exitedFds(fds: readonly number[]): void {
    for (const fd of fds) {
      const pid = this.pidOfFd.get(fd);
      if (pid === undefined) continue;
      this.exitedInThread.push(pid);
      this.drop(pid);
    }
    this.signalExit();
  }

  private signalExit(): void {
    this.onExit?.();
  }

  /** The followed processes that have exited since the last call; they are no longer followed. */
  exited(): readonly number[] {
    let out: number[] | null = null;
    if (this.goneBeforeFollowed.length > 0) {
      out = this.goneBeforeFollowed;
      this.goneBeforeFollowed = [];
    }
    if (this.exitedInThread.length > 0) {
      out = out ? out.concat(this.exitedInThread) : this.exitedInThread;
      this.exitedInThread = [];
    }
    // The worker's poll is the one that looks: nothing to ask the kernel here.
    if (this.poll) return out ?? NONE;
    if (this.slotsStale) this.layOutSlots();
    if (this.slots.length > 0 && pollNow(this.fds, this.slots.length) > 0) {
      const ready: number[] = [];
      for (let i = 0; i < this.slots.length; i++) if (pollfdReady(this.fds, i)) ready.push(this.slots[i]!);
      for (const pid of ready) this.drop(pid);
      out = out ? out.concat(ready) : ready;
    }
    return out ?? NONE;
  }

  get size(): number {
    return this.followed.size;
  }

  /**
   * Whether the worker thread waits for this process's exit (pid and start time) and has not seen it yet:
   * until it has (and onExit was called), the process has not exited, short of the moment the thread's
   * word takes to arrive. False where exits are polled on the caller's timer.
   */
  waitsFor(pid: number, startKey: number): boolean {
    return this.poll !== null && this.followed.get(pid)?.startKey === startKey;
  }

  close(): void {
    this.stopWaiting();
    for (const pid of [...this.followed.keys()]) this.drop(pid);
    this.layOutSlots();
  }

  private drop(pid: number): void {
    const followed = this.followed.get(pid);
    if (!followed) return;
    this.followed.delete(pid);
    this.pidOfFd.delete(followed.fd);
    keptFds.total--;
    pidfdClose(followed.fd);
    this.slotsStale = true;
    this.setChanged = true;
  }

  private layOutSlots(): void {
    this.slots = [...this.followed.keys()];
    if (this.fds.length < this.slots.length * POLLFD_SIZE)
      this.fds = Buffer.alloc(Math.max(64, this.slots.length * 2) * POLLFD_SIZE);
    this.slots.forEach((pid, i) => setPollfd(this.fds, i, this.followed.get(pid)!.fd));
    this.slotsStale = false;
  }
}
