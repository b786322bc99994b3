import { POLLFD_SIZE, POLLIN, POLLNVAL } from '../../main/core/os/pollfd';

type PollDone = (err: unknown, ready: number) => void;

/**
 * The descriptors of FakeLibSystem that poll(2) can wait on: pipes, and a kqueue whose readiness the
 * stand-in says. As xnu answers (bsd/kern/sys_generic.c poll_nocancel): a slot whose descriptor is not
 * open reports POLLNVAL; a pipe's read end is readable while it holds bytes (sys_pipe.c pipe_select); a
 * kqueue is readable while events are pending on it (kern_event.c kqueue_select, kqf_count).
 *
 * It cannot block a thread: a poll on this thread must not wait (a timeout other than 0 throws, since
 * the monitor never sleeps in poll on its own thread), and an async poll is answered on a later turn once
 * one of its descriptors is ready. Reading an empty pipe would block, so it throws too.
 */
export class FakeDescriptors {
  private nextFd = 20;
  private readonly pipes = new Map<number, { readEnd: number; bytes: number }>();
  private readonly parked: { fds: Buffer; count: number; done: PollDone }[] = [];
  readonly asyncPolls: number[][] = [];

  constructor(
    private readonly kqReady: (fd: number) => boolean | null,
    private readonly closeOther: (fd: number) => number,
  ) {}

  pipe(): [number, number] {
    const readEnd = this.nextFd++;
    const writeEnd = this.nextFd++;
    const state = { readEnd, bytes: 0 };
    this.pipes.set(readEnd, state);
    this.pipes.set(writeEnd, state);
    return [readEnd, writeEnd];
  }

  write(fd: number, count: number): number {
    const p = this.pipes.get(fd);
    if (!p || p.readEnd === fd) return -1;
    p.bytes += count;
    this.changed();
    return count;
  }

  read(fd: number, count: number): number {
    const p = this.pipes.get(fd);
    if (!p || p.readEnd !== fd) return -1;
    if (p.bytes === 0) throw new Error(`read(${fd}) of an empty pipe would block this thread`);
    const n = Math.min(count, p.bytes);
    p.bytes -= n;
    return n;
  }

  close(fd: number): number {
    if (!this.pipes.has(fd)) return this.closeOther(fd);
    this.pipes.delete(fd);
    this.changed();
    return 0;
  }

  poll(fds: Buffer, count: number, timeoutMs: number): number {
    if (timeoutMs !== 0) throw new Error('poll with a timeout would block this thread');
    return this.answer(fds, count);
  }

  pollAsync(fds: Buffer, count: number, _timeoutMs: number, done: PollDone): void {
    const slots: number[] = [];
    for (let i = 0; i < count; i++) slots.push(fds.readInt32LE(i * POLLFD_SIZE));
    this.asyncPolls.push(slots);
    this.parked.push({ fds, count, done });
    this.changed();
  }

  /** Something became ready (or was closed): waiting polls that now have an answer get it, on a later turn. */
  changed(): void {
    for (const waiter of [...this.parked]) {
      const ready = this.answer(waiter.fds, waiter.count);
      if (ready === 0) continue;
      this.parked.splice(this.parked.indexOf(waiter), 1);
      setImmediate(() => waiter.done(null, ready));
    }
  }

  get waiting(): number {
    return this.parked.length;
  }

  private answer(fds: Buffer, count: number): number {
    let ready = 0;
    for (let i = 0; i < count; i++) {
      const at = i * POLLFD_SIZE;
      const events = this.revents(fds.readInt32LE(at));
      fds.writeInt16LE(events, at + 6);
      if (events !== 0) ready++;
    }
    return ready;
  }

  private revents(fd: number): number {
    const p = this.pipes.get(fd);
    if (p) return p.readEnd === fd && p.bytes > 0 ? POLLIN : 0;
    const kq = this.kqReady(fd);
    if (kq === null) return POLLNVAL;
    return kq ? POLLIN : 0;
  }
}
