/** A pid is read again at this many looks after /proc did not show it, and for at least RETRY_MS. */
const RETRY_LOOKS = 3;
const RETRY_MS = 100;
/** Beyond this many, the oldest misses are dropped: a fork storm of short-lived processes is not retried. */
const MAX_PENDING = 2048;
const NONE: ReadonlySet<number> = new Set();

/**
 * Pids the kernel's counter announced that /proc did not show yet. copy_process() (kernel/fork.c) takes
 * the child's pid from alloc_pid() (kernel/pid.c), which moves the counter that /proc/loadavg shows, but
 * /proc finds the child only after attach_pid(), further on in copy_process(): a read in between gets
 * ENOENT for a process being born. Measured on this VM by probing the newest pid as soon as the counter
 * moved, while a shell forked: 1,227 of 3,002 probes fell in that window, each lasting at most 60 µs.
 * A pid read in that window and never read again was lost: the cursor had moved past it, so no look
 * probed it again (an orphan or held pipe was never reported).
 *
 * Each such pid is read again at the next looks, until it is seen, or for at least RETRY_LOOKS looks and
 * RETRY_MS (a process that exited before its first read is retried too: it cannot be told apart).
 */
export class PendingBirths {
  private readonly pending = new Map<number, { looksLeft: number; since: number }>();
  /** The pids the counter announced at the latest look: only a miss among them is a birth to wait for. */
  private announced: ReadonlySet<number> = NONE;

  /** A look: `range` is what the counter announced; returns it with the earlier misses to read again. */
  look(range: number[], now: number): number[] {
    this.announced = range.length === 0 ? NONE : new Set(range);
    if (this.pending.size === 0) return range;
    const pids = range;
    for (const [pid, entry] of this.pending) {
      if (!this.announced.has(pid)) pids.push(pid);
      entry.looksLeft--;
      if (entry.looksLeft <= 0 && now - entry.since >= RETRY_MS) this.pending.delete(pid);
    }
    return pids;
  }

  /** A read of `pid` found nothing in /proc. */
  missed(pid: number, now: number): void {
    if (!this.announced.has(pid) || this.pending.has(pid)) return;
    if (this.pending.size >= MAX_PENDING) {
      const oldest = this.pending.keys().next();
      if (!oldest.done) this.pending.delete(oldest.value);
    }
    this.pending.set(pid, { looksLeft: RETRY_LOOKS, since: now });
  }

  /** `pid` was read (or found to be something never to retry, a thread). */
  seen(pid: number): void {
    this.pending.delete(pid);
  }

  get size(): number {
    return this.pending.size;
  }
}
