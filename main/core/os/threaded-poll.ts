import { loadLibc, type Libc } from './libc';
import { POLLFD_SIZE, POLLNVAL, pollfdEvents, setPollfd } from './pidfd';

// eventfd(2) flags (the same values as O_CLOEXEC and O_NONBLOCK on every Linux architecture koffi runs on).
const EFD_CLOEXEC = 0o2000000;
const EFD_NONBLOCK = 0o4000;
const MAX_FAILURES_IN_A_ROW = 3;

/**
 * A blocking poll(2) over a set of descriptors, run on one of libuv's worker threads (koffi's async call),
 * so that this thread sleeps until one of them is ready instead of looking on a timer. Slot 0 is an
 * eventfd of its own: writing to it wakes the poll when the set changes or the poll is closed.
 *
 * While the poll is under way the thread owns its pollfd buffer: it is never written from here until the
 * call returns, and a descriptor closed meanwhile is reported back only if it is still in the set then.
 * No poll is under way while the set is empty, so an idle watch holds no worker thread.
 */
export class ThreadedPoll {
  private inFlight: { buffer: Buffer; fds: number[] } | null = null;
  private failures = 0;
  private closed = false;
  private eventfd: number;
  private readonly word = Buffer.alloc(8);
  private readonly closedWaiters: (() => void)[] = [];

  private constructor(
    private readonly libc: Libc,
    eventfd: number,
    /** The descriptors to wait on now. */
    private readonly currentFds: () => readonly number[],
    /** Called on this thread with the descriptors of the set that became ready (never the eventfd). */
    private readonly onReady: (fds: number[]) => void,
    /** Called once if the poll itself fails: the caller falls back to looking on its timer. */
    private readonly onFailed: (reason: string) => void,
  ) {
    this.eventfd = eventfd;
  }

  /** null where poll or eventfd cannot be had (not Linux, no libc through koffi). */
  static open(
    currentFds: () => readonly number[],
    onReady: (fds: number[]) => void,
    onFailed: (reason: string) => void,
  ): ThreadedPoll | null {
    const libc = loadLibc();
    if (!libc) return null;
    const fd = libc.eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (fd < 0) return null;
    return new ThreadedPoll(libc, fd, currentFds, onReady, onFailed);
  }

  /** True while a poll is waiting in the worker thread. */
  get waiting(): boolean {
    return this.inFlight !== null;
  }

  /** The set changed: a waiting poll is woken to take the new one; an idle one starts if the set is not empty. */
  changed(): void {
    if (this.closed) return;
    if (this.inFlight) this.wake();
    else this.arm();
  }

  /**
   * Stops waiting. The eventfd is closed once the worker's poll has returned (closing it under a waiting
   * poll could leave the poll waiting on whatever reuses the number); `whenClosed` resolves then.
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.inFlight) this.wake();
    else this.release();
  }

  /** Resolves once the worker thread no longer waits and the eventfd is closed. */
  whenClosed(): Promise<void> {
    if (this.closed && !this.inFlight && this.eventfd < 0) return Promise.resolve();
    return new Promise((resolve) => this.closedWaiters.push(resolve));
  }

  private arm(): void {
    if (this.closed || this.inFlight) return;
    const fds = [...this.currentFds()];
    if (fds.length === 0) return;
    const buffer = Buffer.alloc((fds.length + 1) * POLLFD_SIZE);
    setPollfd(buffer, 0, this.eventfd);
    fds.forEach((fd, i) => setPollfd(buffer, i + 1, fd));
    this.inFlight = { buffer, fds };
    this.libc.poll.async(buffer, fds.length + 1, -1, (err, count) => this.returned(err, count));
  }

  private returned(err: unknown, count: number): void {
    const flight = this.inFlight!;
    this.inFlight = null;
    if (this.closed) {
      this.release();
      return;
    }
    if (err || count < 0) {
      // The worker's errno cannot be read from here (koffi.errno() is this thread's). An interrupted
      // poll is worth another try; a failure that repeats at once is not, and the caller falls back.
      if (!err && ++this.failures < MAX_FAILURES_IN_A_ROW) {
        this.arm();
        return;
      }
      this.closed = true;
      this.release();
      this.onFailed(err ? String(err) : `poll failed ${this.failures} times in a row`);
      return;
    }
    this.failures = 0;
    if (pollfdEvents(flight.buffer, 0) !== 0) this.drain();
    const candidates: number[] = [];
    const current = new Set(this.currentFds());
    for (let i = 0; i < flight.fds.length; i++) {
      const events = pollfdEvents(flight.buffer, i + 1);
      const fd = flight.fds[i]!;
      // Closed during the poll (POLLNVAL), or no longer in the set: not an answer about the set.
      if (events !== 0 && (events & POLLNVAL) === 0 && current.has(fd)) candidates.push(fd);
    }
    const ready = candidates.length > 0 ? this.readyNow(candidates) : candidates;
    if (ready.length > 0) this.onReady(ready);
    this.arm();
  }

  /**
   * The candidates still ready when asked again, without waiting. A descriptor closed while this thread
   * had not yet seen the worker's answer may have had its number reused by one of the current set: the
   * answer was about the old one. The descriptors waited on stay ready once ready (a pidfd after its
   * process exited), so asking again is exact.
   */
  private readyNow(fds: readonly number[]): number[] {
    const buffer = Buffer.alloc(fds.length * POLLFD_SIZE);
    fds.forEach((fd, i) => setPollfd(buffer, i, fd));
    if (this.libc.poll(buffer, fds.length, 0) <= 0) return [];
    return fds.filter((_, i) => {
      const events = pollfdEvents(buffer, i);
      return events !== 0 && (events & POLLNVAL) === 0;
    });
  }

  private wake(): void {
    this.word.writeBigUInt64LE(1n);
    this.libc.write(this.eventfd, this.word, 8);
  }

  private drain(): void {
    this.libc.read(this.eventfd, this.word, 8);
  }

  private release(): void {
    if (this.eventfd >= 0) this.libc.close(this.eventfd);
    this.eventfd = -1;
    for (const resolve of this.closedWaiters.splice(0)) resolve();
  }
}
