// struct pollfd as poll(2) takes it: the same layout and bits on Linux and macOS (xnu bsd/sys/poll.h).

/** Bytes of one `struct pollfd` (int fd; short events; short revents). */
export const POLLFD_SIZE = 8;
export const POLLIN = 1;
/** The descriptor in this slot is not open (it was closed while a poll was under way). */
export const POLLNVAL = 0x20;

/** Fills slot `index` of a pollfd array to wait for `fd` to become readable. */
export function setPollfd(fds: Buffer, index: number, fd: number): void {
  fds.writeInt32LE(fd, index * POLLFD_SIZE);
  fds.writeInt16LE(POLLIN, index * POLLFD_SIZE + 4);
  fds.writeInt16LE(0, index * POLLFD_SIZE + 6);
}

/** Whether the kernel reported an event on slot `index` in the last poll. */
export function pollfdReady(fds: Buffer, index: number): boolean {
  return fds.readInt16LE(index * POLLFD_SIZE + 6) !== 0;
}

/** The events the kernel reported on slot `index` (revents). */
export function pollfdEvents(fds: Buffer, index: number): number {
  return fds.readInt16LE(index * POLLFD_SIZE + 6);
}
