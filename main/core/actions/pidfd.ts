import { closeSync } from 'node:fs';
import { constants } from 'node:os';
import koffi from 'koffi';

// Syscall numbers shared by every Linux architecture since 5.1/5.3 (the unified syscall table).
const SYS_PIDFD_SEND_SIGNAL = 424;
const SYS_PIDFD_OPEN = 434;

type Syscall = (number: number, ...args: unknown[]) => number;

let syscall: Syscall | null | undefined;

function loadSyscall(): Syscall | null {
  if (syscall !== undefined) return syscall;
  syscall = null;
  if (process.platform !== 'linux') return null;
  try {
    const libc = koffi.load('libc.so.6');
    syscall = libc.func('long syscall(long number, ...)') as Syscall;
  } catch {
    syscall = null;
  }
  return syscall;
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

export function pidfdClose(fd: number): void {
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
