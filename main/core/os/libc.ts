import koffi from 'koffi';

type Syscall = (number: number, ...args: unknown[]) => number;
type Poll = (fds: Buffer, count: number, timeoutMs: number) => number;
type AsyncPoll = {
  async: (fds: Buffer, count: number, timeoutMs: number, done: (err: unknown, ready: number) => void) => void;
};
type Close = (fd: number) => number;
type Eventfd = (initval: number, flags: number) => number;
type ReadWrite = (fd: number, buf: Buffer, count: number) => number;

export interface Libc {
  syscall: Syscall;
  poll: Poll & AsyncPoll;
  close: Close;
  eventfd: Eventfd;
  read: ReadWrite;
  write: ReadWrite;
}

let libc: Libc | null | undefined;

/** The few libc functions Corral calls through koffi (Linux only); null where they cannot be loaded. */
export function loadLibc(): Libc | null {
  if (libc !== undefined) return libc;
  libc = null;
  if (process.platform !== 'linux') return null;
  try {
    const lib = koffi.load('libc.so.6');
    libc = {
      syscall: lib.func('long syscall(long number, ...)') as Syscall,
      poll: lib.func('int poll(void *fds, unsigned long nfds, int timeout)') as Poll & AsyncPoll,
      close: lib.func('int close(int fd)') as Close,
      eventfd: lib.func('int eventfd(unsigned int initval, int flags)') as Eventfd,
      read: lib.func('long read(int fd, void *buf, unsigned long count)') as ReadWrite,
      write: lib.func('long write(int fd, void *buf, unsigned long count)') as ReadWrite,
    };
  } catch {
    libc = null;
  }
  return libc;
}
