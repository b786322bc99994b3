import { createRequire } from 'node:module';
import type * as Koffi from 'koffi';

/**
 * The few libSystem calls the macOS sampler makes, as plain functions over caller-owned buffers so the
 * sampler can be exercised with a stand-in. Each returns what the C function returns; `errno()` reads
 * the errno of the last failed call.
 */
export interface LibSystem {
  /**
   * proc_listallpids(buffer, bytes): number of pids written, at most what fits. 0 on error, never -1:
   * libproc's proc_listpids turns __proc_info's -1 into 0 (libsyscall/wrappers/libproc/libproc.c).
   */
  procListAllPids(buf: Int32Array): number;
  /** proc_listchildpids(ppid, buffer, bytes): number of child pids written; 0 on error, as above. */
  procListChildPids(ppid: number, buf: Int32Array): number;
  /** proc_pidinfo(pid, flavor, arg, buffer, bytes): bytes written, 0 or less on error. */
  procPidInfo(pid: number, flavor: number, arg: number, buf: Buffer): number;
  /** proc_pidfdinfo(pid, fd, flavor, buffer, bytes): bytes written, 0 on error (errno set). */
  procPidFdInfo(pid: number, fd: number, flavor: number, buf: Buffer): number;
  /** sysctl(mib, n, buffer, &length, NULL, 0); returns the length written, or -1 on error. */
  sysctl(mib: Int32Array, buf: Buffer): number;
  /** sysctlbyname(name, buffer, &length, NULL, 0), for OID_AUTO names such as hw.tbfrequency. */
  sysctlByName(name: string, buf: Buffer): number;
  /** proc_pid_rusage(pid, flavor, buffer): 0, or -1 on error; the buffer must hold the flavor's struct. */
  procPidRusage(pid: number, flavor: number, buf: Buffer): number;
  getsid(pid: number): number;
  /** kqueue(): a new kernel event queue's descriptor, -1 on error. */
  kqueue(): number;
  /**
   * kevent(kq, changes, nchanges, events, nevents, &{0, 0}): applies `nchanges` struct kevent from
   * `changes` and returns at once with the number written to `events`, -1 on error.
   */
  kevent(kq: number, changes: Buffer, nchanges: number, events: Buffer, nevents: number): number;
  close(fd: number): number;
  /** poll(fds, nfds, timeout) over struct pollfd slots (main/core/os/pollfd.ts). */
  poll(fds: Buffer, count: number, timeoutMs: number): number;
  /** The same poll on one of libuv's worker threads (koffi's async call); `done` runs on this thread. */
  pollAsync(fds: Buffer, count: number, timeoutMs: number, done: (err: unknown, ready: number) => void): void;
  /** pipe(): [read end, write end], or null on error. */
  pipe(): [number, number] | null;
  read(fd: number, buf: Buffer, count: number): number;
  write(fd: number, buf: Buffer, count: number): number;
  /** devname(dev, S_IFCHR): "ttys003", or null when the device has no name. */
  devname(dev: number): string | null;
  /** mach_timebase_info: multiply Mach ticks by numer / denom to get nanoseconds. */
  timebase(): { numer: number; denom: number };
  errno(): number;
}

const LIBSYSTEM_PATH = '/usr/lib/libSystem.B.dylib';
const S_IFCHR = 0o020000;

/** Loads koffi and libSystem; only called when a DarwinSampler is built, so other platforms never do. */
export function loadLibSystem(path = LIBSYSTEM_PATH): LibSystem {
  const koffi = loadKoffi();
  let lib: Koffi.LibraryHandle;
  try {
    lib = koffi.load(path);
  } catch (error) {
    throw new Error(`cannot load ${path}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  // Pointers are declared void * and given Buffers or typed arrays: koffi passes their memory in place.
  const procListAllPids = lib.func('int proc_listallpids(void *buffer, int buffersize)');
  const procListChildPids = lib.func('int proc_listchildpids(int ppid, void *buffer, int buffersize)');
  const procPidInfo = lib.func(
    'int proc_pidinfo(int pid, int flavor, uint64_t arg, void *buffer, int buffersize)',
  );
  const procPidFdInfo = lib.func(
    'int proc_pidfdinfo(int pid, int fd, int flavor, void *buffer, int buffersize)',
  );
  const sysctl = lib.func(
    'int sysctl(void *name, uint32_t namelen, void *oldp, void *oldlenp, void *newp, size_t newlen)',
  );
  const sysctlByName = lib.func(
    'int sysctlbyname(const char *name, void *oldp, void *oldlenp, void *newp, size_t newlen)',
  );
  const procPidRusage = lib.func('int proc_pid_rusage(int pid, int flavor, void *buffer)');
  const getsid = lib.func('int getsid(int pid)');
  const kqueue = lib.func('int kqueue()');
  const kevent = lib.func(
    'int kevent(int kq, void *changelist, int nchanges, void *eventlist, int nevents, void *timeout)',
  );
  const close = lib.func('int close(int fd)');
  // nfds_t is an unsigned int in xnu's bsd/sys/poll.h.
  const poll = lib.func('int poll(void *fds, unsigned int nfds, int timeout)');
  const pipe = lib.func('int pipe(void *fds)');
  const read = lib.func('intptr_t read(int fd, void *buf, size_t count)');
  const write = lib.func('intptr_t write(int fd, void *buf, size_t count)');
  const zeroTimeout = new BigInt64Array(2);
  const devname = lib.func('const char *devname(int32_t dev, uint16_t type)');
  const machTimebaseInfo = lib.func('int mach_timebase_info(void *info)');
  const length = new BigUint64Array(1);

  return {
    procListAllPids: (buf) => procListAllPids(buf, buf.byteLength) as number,
    procListChildPids: (ppid, buf) => procListChildPids(ppid, buf, buf.byteLength) as number,
    procPidInfo: (pid, flavor, arg, buf) => procPidInfo(pid, flavor, arg, buf, buf.length) as number,
    procPidFdInfo: (pid, fd, flavor, buf) => procPidFdInfo(pid, fd, flavor, buf, buf.length) as number,
    sysctl: (mib, buf) => {
      length[0] = BigInt(buf.length);
      const rc = sysctl(mib, mib.length, buf, length, null, 0) as number;
      return rc === 0 ? Number(length[0]) : -1;
    },
    sysctlByName: (name, buf) => {
      length[0] = BigInt(buf.length);
      const rc = sysctlByName(name, buf, length, null, 0) as number;
      return rc === 0 ? Number(length[0]) : -1;
    },
    procPidRusage: (pid, flavor, buf) => procPidRusage(pid, flavor, buf) as number,
    getsid: (pid) => getsid(pid) as number,
    kqueue: () => kqueue() as number,
    kevent: (kq, changes, nchanges, events, nevents) =>
      kevent(kq, changes, nchanges, events, nevents, zeroTimeout) as number,
    close: (fd) => close(fd) as number,
    poll: (fds, count, timeoutMs) => poll(fds, count, timeoutMs) as number,
    pollAsync: (fds, count, timeoutMs, done) =>
      (poll.async as (...args: unknown[]) => void)(fds, count, timeoutMs, done),
    pipe: () => {
      const ends = new Int32Array(2);
      return (pipe(ends) as number) === 0 ? [ends[0]!, ends[1]!] : null;
    },
    read: (fd, buf, count) => Number(read(fd, buf, count)),
    write: (fd, buf, count) => Number(write(fd, buf, count)),
    devname: (dev) => {
      const name = devname(dev | 0, S_IFCHR) as string | null;
      return name && name !== '??' ? name : null;
    },
    timebase: () => {
      const info = new Uint32Array(2);
      if ((machTimebaseInfo(info) as number) !== 0 || info[1] === 0) return { numer: 1, denom: 1 };
      return { numer: info[0] as number, denom: info[1] as number };
    },
    errno: () => koffi.errno(),
  };
}

/** koffi is a native addon: require it only here, on demand, whether this file runs as ESM or CJS. */
export function loadKoffi(): typeof Koffi {
  const load = typeof require === 'function' ? require : createRequire(import.meta.url);
  return load('koffi') as typeof Koffi;
}
