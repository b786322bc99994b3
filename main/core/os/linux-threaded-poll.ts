import { loadLibc } from './libc';
import { ThreadedPoll } from './threaded-poll';

// eventfd(2) flags (the same values as O_CLOEXEC and O_NONBLOCK on every Linux architecture koffi runs on).
const EFD_CLOEXEC = 0o2000000;
const EFD_NONBLOCK = 0o4000;

/** A ThreadedPoll over libc, woken through an eventfd; null where either cannot be had (not Linux, no koffi). */
export function openLinuxThreadedPoll(
  currentFds: () => readonly number[],
  onReady: (fds: number[]) => void,
  onFailed: (reason: string) => void,
): ThreadedPoll | null {
  const libc = loadLibc();
  if (!libc) return null;
  const fd = libc.eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (fd < 0) return null;
  const calls = {
    poll: libc.poll,
    pollAsync: (fds: Buffer, count: number, timeoutMs: number, done: (err: unknown, ready: number) => void) =>
      libc.poll.async(fds, count, timeoutMs, done),
    read: libc.read,
    write: libc.write,
    close: libc.close,
  };
  return new ThreadedPoll(calls, { readFd: fd, writeFd: fd }, currentFds, onReady, onFailed);
}
