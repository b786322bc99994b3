import koffi from 'koffi';

// Linux ABI constants (linux/netlink.h, linux/sock_diag.h, linux/unix_diag.h).
const AF_NETLINK = 16;
const AF_UNIX = 1;
const SOCK_DGRAM = 2;
const SOCK_CLOEXEC = 0o2000000;
const NETLINK_SOCK_DIAG = 4;
const SOCK_DIAG_BY_FAMILY = 20;
const NLM_F_REQUEST = 0x1;
const NLM_F_DUMP = 0x300;
const NLMSG_ERROR = 2;
const NLMSG_DONE = 3;
const UDIAG_SHOW_PEER = 0x4;
const UNIX_DIAG_PEER = 2;
const NLMSG_HDRLEN = 16;
const UNIX_DIAG_MSG_LEN = 16;
const ENOENT = 2;

export interface SockDiagLibc {
  socket: (domain: number, type: number, protocol: number) => number;
  send: (fd: number, buf: Buffer, len: number, flags: number) => number;
  recv: (fd: number, buf: Buffer, len: number, flags: number) => number;
  close: (fd: number) => number;
}

let libc: SockDiagLibc | null | undefined;

export function loadSockDiagLibc(): SockDiagLibc | null {
  if (libc !== undefined) return libc;
  try {
    const lib = koffi.load('libc.so.6');
    libc = {
      socket: lib.func('int socket(int, int, int)'),
      send: lib.func('long send(int, const void *buf, size_t len, int flags)'),
      recv: lib.func('long recv(int, _Out_ void *buf, size_t len, int flags)'),
      close: lib.func('int close(int)'),
    };
  } catch {
    libc = null;
  }
  return libc;
}

/**
 * Inode → peer inode of every connected Unix socket in this network namespace, from one
 * sock_diag(7) dump. /proc shows a socketpair's two ends as unrelated `socket:[inode]` links; only
 * the kernel's diagnostics pair them. Null when the query is not possible (no glibc, no unix_diag).
 */
export function readUnixSocketPeers(): Map<number, number> | null {
  const c = loadSockDiagLibc();
  if (!c) return null;
  const fd = c.socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
  if (fd < 0) return null;
  try {
    if (c.send(fd, dumpRequest(), NLMSG_HDRLEN + 24, 0) < 0) return null;
    return receivePeers(c, fd);
  } finally {
    c.close(fd);
  }
}

/**
 * Inode → peer inode of just these Unix sockets, asked one by one (sock_diag's exact lookup by inode),
 * so the cost follows the few sockets a held-pipe check asks about, not every socket on the machine
 * (a desktop has thousands; the dump's parsing was the larger part of the monitor's steady cost). A
 * socket that is gone or in another network namespace is left out. Null when the query is not possible.
 */
export function readUnixSocketPeersOf(inodes: Iterable<number>): Map<number, number> | null {
  const c = loadSockDiagLibc();
  if (!c) return null;
  const fd = c.socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
  if (fd < 0) return null;
  try {
    const peers = new Map<number, number>();
    const req = exactRequest();
    const buf = Buffer.alloc(8 * 1024);
    for (const inode of inodes) {
      req.writeUInt32LE(inode, NLMSG_HDRLEN + 8); // udiag_ino
      if (c.send(fd, req, req.length, 0) < 0) return null;
      const n = c.recv(fd, buf, buf.length, 0);
      if (n < NLMSG_HDRLEN) return null;
      const len = buf.readUInt32LE(0);
      const type = buf.readUInt16LE(4);
      if (type === NLMSG_ERROR) {
        // The socket is gone (or not in this namespace): no peer to report. Anything else: not possible.
        if (n >= NLMSG_HDRLEN + 4 && buf.readInt32LE(NLMSG_HDRLEN) === -ENOENT) continue;
        return null;
      }
      if (len < NLMSG_HDRLEN || len > n) return null;
      readPeerAttribute(buf, 0, len, peers);
    }
    return peers;
  } finally {
    c.close(fd);
  }
}

/** One socket by inode: no dump flag, and the cookie that matches any socket (INET_DIAG_NOCOOKIE). */
function exactRequest(): Buffer {
  const req = Buffer.alloc(NLMSG_HDRLEN + 24);
  req.writeUInt32LE(req.length, 0); // nlmsg_len
  req.writeUInt16LE(SOCK_DIAG_BY_FAMILY, 4);
  req.writeUInt16LE(NLM_F_REQUEST, 6);
  req.writeUInt32LE(1, 8); // nlmsg_seq
  req.writeUInt8(AF_UNIX, NLMSG_HDRLEN); // sdiag_family
  req.writeUInt32LE(0xffffffff, NLMSG_HDRLEN + 4); // udiag_states: all
  req.writeUInt32LE(UDIAG_SHOW_PEER, NLMSG_HDRLEN + 12); // udiag_show
  req.writeUInt32LE(0xffffffff, NLMSG_HDRLEN + 16); // udiag_cookie[0]
  req.writeUInt32LE(0xffffffff, NLMSG_HDRLEN + 20); // udiag_cookie[1]
  return req;
}

function dumpRequest(): Buffer {
  const req = Buffer.alloc(NLMSG_HDRLEN + 24);
  req.writeUInt32LE(req.length, 0); // nlmsg_len
  req.writeUInt16LE(SOCK_DIAG_BY_FAMILY, 4);
  req.writeUInt16LE(NLM_F_REQUEST | NLM_F_DUMP, 6);
  req.writeUInt32LE(1, 8); // nlmsg_seq
  req.writeUInt8(AF_UNIX, NLMSG_HDRLEN); // sdiag_family
  req.writeUInt32LE(0xffffffff, NLMSG_HDRLEN + 4); // udiag_states: all
  req.writeUInt32LE(UDIAG_SHOW_PEER, NLMSG_HDRLEN + 12); // udiag_show
  return req;
}

function receivePeers(c: SockDiagLibc, fd: number): Map<number, number> | null {
  const peers = new Map<number, number>();
  const buf = Buffer.alloc(64 * 1024);
  for (;;) {
    const n = c.recv(fd, buf, buf.length, 0);
    if (n <= 0) return null;
    for (let off = 0; off + NLMSG_HDRLEN <= n;) {
      const len = buf.readUInt32LE(off);
      const type = buf.readUInt16LE(off + 4);
      if (type === NLMSG_DONE) return peers;
      if (type === NLMSG_ERROR || len < NLMSG_HDRLEN) return null;
      readPeerAttribute(buf, off, len, peers);
      off += align4(len);
    }
  }
}

function readPeerAttribute(buf: Buffer, off: number, len: number, peers: Map<number, number>): void {
  const msg = off + NLMSG_HDRLEN;
  const inode = buf.readUInt32LE(msg + 4); // udiag_ino
  for (let attr = msg + UNIX_DIAG_MSG_LEN; attr + 4 <= off + len;) {
    const attrLen = buf.readUInt16LE(attr);
    if (attrLen < 4) return;
    if (buf.readUInt16LE(attr + 2) === UNIX_DIAG_PEER && attrLen >= 8)
      peers.set(inode, buf.readUInt32LE(attr + 4));
    attr += align4(attrLen);
  }
}

function align4(n: number): number {
  return (n + 3) & ~3;
}
