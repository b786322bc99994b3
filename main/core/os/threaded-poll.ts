import { POLLFD_SIZE, POLLNVAL, pollfdEvents, setPollfd } from './pollfd';

const MAX_FAILURES_IN_A_ROW = 3;

/** The C calls a threaded poll makes: libc's on Linux, libSystem's on macOS (or a test's stand-in). */
export interface PollCalls {
  /** poll(fds, nfds, timeout) on this thread. */
  poll(fds: Buffer, count: number, timeoutMs: number): number;
  /** The same poll on one of libuv's worker threads (koffi's async call); `done` runs on this thread. */
  pollAsync(fds: Buffer, count: number, timeoutMs: number, done: (err: unknown, ready: number) => void): void;
  read(fd: number, buf: Buffer, count: number): number;
  write(fd: number, buf: Buffer, count: number): number;
  close(fd: number): number;
}

/**
 * What wakes a waiting poll: writing to `writeFd` makes `readFd` readable. One eventfd on Linux (both
 * ends the same descriptor, 8-byte words), a pipe on macOS.
 */
export interface Waker {
  readFd: number;
  writeFd: number;
}

/**
 * A blocking poll(2) over a set of descriptors, run on one of libuv's worker threads (koffi's async call),
 * so that this thread sleeps until one of them is ready instead of looking on a timer. Slot 0 is the
 * waker's: writing to it wakes the poll when the set changes or the poll is closed.
 *
 * While the poll is under way the thread owns its pollfd buffer: it is never written from here until the
 * call returns, and a descriptor closed meanwhile is reported back only if it is still in the set then.
 * No poll is under way while the set is empty, so an idle watch holds no worker thread.
 */
export class ThreadedPoll {
  private inFlight: { buffer: Buffer; fds: number[] } | null = null;
  private failures = 0;
  private closed = false;
  private waker: Waker | null;
  private readonly word = Buffer.alloc(8);
  /** A wake written and not yet drained: one is enough, and a pipe never fills up with them. */
  private wakePending = false;
  private readonly closedWaiters: (() => void)[] = [];

  constructor(
    private readonly calls: PollCalls,
    waker: Waker,
    /** The descriptors to wait on now. */
    private readonly currentFds: () => readonly number[],
    /** Called on this thread with the descriptors of the set that became ready (never the waker's). */
    private readonly onReady: (fds: number[]) => void,
    /** Called once if the poll itself fails: the caller falls back to looking on its timer. */
    private readonly onFailed: (reason: string) => void,
  ) {
    this.waker = waker;
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
   * Stops waiting. The waker is closed once the worker's poll has returned (closing it under a waiting
   * poll could leave the poll waiting on whatever reuses the number); `whenClosed` resolves then.
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.inFlight) this.wake();
    else this.release();
  }

  /** Resolves once the worker thread no longer waits and the waker is closed. */
  whenClosed(): Promise<void> {
    if (this.closed && !this.inFlight && this.waker === null) return Promise.resolve();
    return new Promise((resolve) => this.closedWaiters.push(resolve));
  }

  private arm(): void {
    if (this.closed || this.inFlight) return;
    const fds = [...this.currentFds()];
    if (fds.length === 0) return;
    const buffer = Buffer.alloc((fds.length + 1) * POLLFD_SIZE);
    setPollfd(buffer, 0, this.waker!.readFd);
    fds.forEach((fd, i) => setPollfd(buffer, i + 1, fd));
    this.inFlight = { buffer, fds };
    this.calls.pollAsync(buffer, fds.length + 1, -1, (err, count) => this.returned(err, count));
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
    if (this.calls.poll(buffer, fds.length, 0) <= 0) return [];
    return fds.filter((_, i) => {
      const events = pollfdEvents(buffer, i);
      return events !== 0 && (events & POLLNVAL) === 0;
    });
  }

  private wake(): void {
    this.word.writeBigUInt64LE(1n);
    if (!this.waker || this.wakePending) return;
    this.wakePending = true;
    this.calls.write(this.waker.writeFd, this.word, 8);
  }

  private drain(): void {
    if (this.waker) this.calls.read(this.waker.readFd, this.word, 8);
    this.wakePending = false;
  }

  private release(): void {
    const waker = this.waker;
    this.waker = null;
    if (waker) {
      this.calls.close(waker.readFd);
      if (waker.writeFd !== waker.readFd) this.calls.close(waker.writeFd);
    }
    for (const resolve of this.closedWaiters.splice(0)) resolve();
  }
}
