// Pipe descriptors as read, and a pipe a descendant holds open: data only.

/** Which end of a pipe a descriptor holds, from its access mode. Sockets are always `rdwr`. */
export type PipeEnd = 'read' | 'write' | 'rdwr';

/**
 * A descriptor that can carry a tool call's output: an anonymous pipe (both ends share one inode),
 * or a socket, because Node-based agents (libuv) hand their children socketpairs as stdout; the two
 * ends of a socketpair have different inodes and are paired by their peer (see unix-socket-peers.ts).
 */
export interface PipeFd {
  fd: number;
  kind: 'pipe' | 'socket';
  /** From the descriptor's link: `pipe:[<inode>]` or `socket:[<inode>]`. */
  inode: number;
  end: PipeEnd;
}

/** A descendant keeps the write end of a pipe open that the agent (or its tool-call wrapper) reads. */
export interface HeldPipe {
  holderPid: number;
  holderFd: number;
  kind: PipeFd['kind'];
  /** The holder's inode (for a pipe, also the reader's). */
  inode: number;
  readerPid: number;
  readerFd: number;
}
