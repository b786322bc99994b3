import { closeSync } from 'node:fs';
import { constants } from 'node:os';
import koffi from 'koffi';
import { loadLibc, type Libc } from './libc';

// Syscall numbers shared by every Linux architecture since 5.1/5.3 (the unified syscall table).
const SYS_PIDFD_SEND_SIGNAL = 424;
const SYS_PIDFD_OPEN = 434;

function loadSyscall(): Libc['syscall'] | null {
  return loadLibc()?.syscall ?? null;
}

/**
 * One poll(2) over the first `count` slots, without waiting: how many are ready (a pidfd is ready once
 * its process has exited), 0 when none, -1 when poll is unavailable or failed (look again later).
 */
export function pollNow(fds: Buffer, count: number): number {
  const lib = loadLibc();
  if (!lib) return -1;
  return lib.poll(fds, count, 0);
}

export type PidfdOpen = { fd: number } | { error: 'ESRCH' | 'EPERM' | 'unavailable' | 'error' };

/**
 * Opens a pidfd: a handle on one process that can never be redirected to a later process reusing the
 * PID. 'unavailable' means this platform or kernel has no pidfds, and the caller must fall back.
 */
export function pidfdOpen(pid: number): PidfdOpen {
  const call = loadSyscall();
  if (!call) return { error: 'unavailable' };
  const fd = call(SYS_PIDFD_OPEN, 'int', pid, 'uint', 0);
  if (fd >= 0) return { fd };
  return { error: errnoName(koffi.errno(), true) };
}

/** Signals the process behind a pidfd. ESRCH once it has exited, whatever now holds its PID. */
export function pidfdSendSignal(
  fd: number,
  signal: 'SIGTERM' | 'SIGKILL',
): 'sent' | 'ESRCH' | 'EPERM' | 'error' {
  const call = loadSyscall();
  if (!call) return 'error';
  const rc = call(
    SYS_PIDFD_SEND_SIGNAL,
    'int',
    fd,
    'int',
    constants.signals[signal],
    'void *',
    null,
    'uint',
    0,
  );
  if (rc === 0) return 'sent';
  const name = errnoName(koffi.errno(), false);
  return name === 'unavailable' ? 'error' : name;
}

/**
 * Closed with libc's close, as it was opened: fs.closeSync on a descriptor fs never opened makes
 * Node warn inside worker threads, where the desktop app runs the core.
 */
export function pidfdClose(fd: number): void {
  const lib = loadLibc();
  if (lib) {
    lib.close(fd);
    return;
  }
  try {
    closeSync(fd);
  } catch {
    // Already closed: nothing to release.
  }
}

function errnoName(errno: number, opening: boolean): 'ESRCH' | 'EPERM' | 'unavailable' | 'error' {
  const codes = koffi.os.errno;
  if (errno === codes.ESRCH) return 'ESRCH';
  if (errno === codes.EPERM) return 'EPERM';
  // ENOSYS: kernel older than 5.3; EINVAL on open: flags unsupported. Both mean "fall back".
  if (opening && (errno === codes.ENOSYS || errno === codes.EINVAL)) return 'unavailable';
  return 'error';
}
