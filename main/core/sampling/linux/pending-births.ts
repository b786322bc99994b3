/**
 * A pid is read again at the looks that come within RETRY_MS after /proc did not show it, the last one
 * RETRY_MS after: the window it waits out lasts microseconds (a few ms for a forking parent preempted in
 * it).
 */
const RETRY_MS = 100;
/**
 * Past this many misses waiting, each is read again only at the next look and once RETRY_MS on, not at
 * every look between: at the busy pace (15 ms) a fork loop, before it was known for a storm, had each
 * of its hundreds of misses read nine times.
 */
const THIN_OVER = 32;
/**
 * Only the newest pids of a look can be in that window: an older one was allocated before these many
 * others, which at a fork storm's thousand a second is 64 ms a forking parent would have to stall mid-fork.
 * A look of a storm announces hundreds, nearly all exited already: those are not retried.
 */
const RETRY_NEWEST = 64;
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
 * Each such pid is read again at the next looks until RETRY_MS on, unless seen before (a process that
 * exited before its first read is retried too: it cannot be told apart); in a burst, only twice.
 */
export class PendingBirths {
  /** Each pid's first miss, and whether it was read again at a look since. */
  private readonly pending = new Map<number, { since: number; retried: boolean }>();
  /** The newest pids the counter announced at the latest look: only a miss among them is a birth to wait for. */
  private announced: ReadonlySet<number> = NONE;

  /** A look: `range` is what the counter announced; returns it with the earlier misses to read again. */
  look(range: number[], now: number): number[] {
    this.announced = range.length === 0 ? NONE : new Set(range.slice(-RETRY_NEWEST));
    if (this.pending.size === 0) return range;
    // A pending pid comes in the range again only after allocation wrapped around at pid_max.
    const inRange = new Set(range);
    const pids = range;
    const thin = this.pending.size > THIN_OVER;
    for (const [pid, entry] of this.pending) {
      const last = now - entry.since >= RETRY_MS;
      if (thin && entry.retried && !last) continue;
      if (!inRange.has(pid)) pids.push(pid);
      if (last) this.pending.delete(pid);
      else entry.retried = true;
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
    this.pending.set(pid, { since: now, retried: false });
  }

  /** `pid` was read (or found to be something never to retry, a thread). */
  seen(pid: number): void {
    this.pending.delete(pid);
  }

  get size(): number {
    return this.pending.size;
  }
}
