import { POLLFD_SIZE, pidfdClose, pidfdOpen, pollNow, pollfdReady, setPollfd } from '../../os/pidfd';
import type { ExitWatchCoverage } from '../process-record';
import { keptFds } from './kept-fds';

const NONE: readonly number[] = Object.freeze([]);

/**
 * Follows processes for their exit through pidfds: one poll(2) says which of them have exited, however
 * many are followed, where reading every parent's child list costs a read per parent. A pidfd stays
 * bound to the process it was opened on, so a pid reused by a newer process is never taken for it.
 */
export class PidfdExitWatch {
  private readonly followed = new Map<number, { startKey: number; fd: number }>();
  /** pid of each pollfd slot, in slot order. */
  private slots: number[] = [];
  private fds = Buffer.alloc(0);
  private slotsStale = false;
  /** Targets that had already exited (or lost their pid to a newer process) when asked to follow them. */
  private goneBeforeFollowed: number[] = [];
  private unavailable = false;

  /** `startKeyNow` reads the start time of whatever process holds a pid now (null: none). */
  constructor(private readonly startKeyNow: (pid: number) => number | null) {}

  /** Follows exactly these processes (pid → startKey) from now on. */
  follow(targets: ReadonlyMap<number, number>): ExitWatchCoverage {
    if (this.unavailable) return 'unavailable';
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
      if (this.startKeyNow(pid) !== startKey) {
        pidfdClose(opened.fd);
        this.goneBeforeFollowed.push(pid);
        continue;
      }
      this.followed.set(pid, { startKey, fd: opened.fd });
      keptFds.total++;
      this.slotsStale = true;
    }
    return coverage;
  }

  /** The followed processes that have exited since the last call; they are no longer followed. */
  exited(): readonly number[] {
    if (this.slotsStale) this.layOutSlots();
    let out: number[] | null = null;
    if (this.goneBeforeFollowed.length > 0) {
      out = this.goneBeforeFollowed;
      this.goneBeforeFollowed = [];
    }
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

  close(): void {
    for (const pid of [...this.followed.keys()]) this.drop(pid);
    this.layOutSlots();
  }

  private drop(pid: number): void {
    const followed = this.followed.get(pid);
    if (!followed) return;
    this.followed.delete(pid);
    keptFds.total--;
    pidfdClose(followed.fd);
    this.slotsStale = true;
  }

  private layOutSlots(): void {
    this.slots = [...this.followed.keys()];
    if (this.fds.length < this.slots.length * POLLFD_SIZE)
      this.fds = Buffer.alloc(Math.max(64, this.slots.length * 2) * POLLFD_SIZE);
    this.slots.forEach((pid, i) => setPollfd(this.fds, i, this.followed.get(pid)!.fd));
    this.slotsStale = false;
  }
}
