import { loadSockDiagLibc, type SockDiagLibc } from './unix-socket-peers';

// Linux ABI constants (linux/netlink.h, linux/sock_diag.h, linux/inet_diag.h, netinet/in.h).
const AF_NETLINK = 16;
const AF_INET = 2;
const AF_INET6 = 10;
const SOCK_DGRAM = 2;
const SOCK_CLOEXEC = 0o2000000;
const NETLINK_SOCK_DIAG = 4;
const SOCK_DIAG_BY_FAMILY = 20;
const IPPROTO_TCP = 6;
const TCP_LISTEN = 10;
const NLM_F_REQUEST = 0x1;
const NLM_F_DUMP = 0x300;
const NLMSG_ERROR = 2;
const NLMSG_DONE = 3;
const NLMSG_HDRLEN = 16;
/** struct inet_diag_req_v2: family, protocol, ext, pad, states, and an inet_diag_sockid of 48 bytes. */
const REQ_LEN = 56;
/** struct inet_diag_msg: where the local port (network order) and the inode are. */
const MSG_SPORT = 4;
const MSG_INODE = 68;
const MSG_LEN = 72;

/**
 * Socket inode → local port of every TCP socket listening in this thread's network namespace (IPv4
 * and IPv6), from sock_diag(7) dumps asking for the LISTEN state only: the kernel then walks only its
 * table of listeners (inet_diag_dump_icsk skips the established hash), where reading /proc/net/tcp and
 * tcp6 walks every bucket of the established hash (262,144 here), about a millisecond each when idle.
 * Null when the query is not possible (no glibc, no inet_diag): then read the tables.
 */
export function readTcpListenerPorts(): Map<number, number> | null {
  const c = loadSockDiagLibc();
  if (!c) return null;
  const fd = c.socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
  if (fd < 0) return null;
  try {
    const ports = new Map<number, number>();
    for (const family of [AF_INET, AF_INET6]) {
      const req = listenersRequest(family);
      if (c.send(fd, req, req.length, 0) < 0) return null;
      if (!receiveListeners(c, fd, ports)) return null;
    }
    return ports;
  } finally {
    c.close(fd);
  }
}

function listenersRequest(family: number): Buffer {
  const req = Buffer.alloc(NLMSG_HDRLEN + REQ_LEN);
  req.writeUInt32LE(req.length, 0); // nlmsg_len
  req.writeUInt16LE(SOCK_DIAG_BY_FAMILY, 4);
  req.writeUInt16LE(NLM_F_REQUEST | NLM_F_DUMP, 6);
  req.writeUInt32LE(family, 8); // nlmsg_seq
  req.writeUInt8(family, NLMSG_HDRLEN); // sdiag_family
  req.writeUInt8(IPPROTO_TCP, NLMSG_HDRLEN + 1); // sdiag_protocol
  req.writeUInt32LE(1 << TCP_LISTEN, NLMSG_HDRLEN + 4); // idiag_states
  return req;
}

function receiveListeners(c: SockDiagLibc, fd: number, ports: Map<number, number>): boolean {
  const buf = Buffer.alloc(32 * 1024);
  for (;;) {
    const n = c.recv(fd, buf, buf.length, 0);
    if (n <= 0) return false;
    for (let off = 0; off + NLMSG_HDRLEN <= n;) {
      const len = buf.readUInt32LE(off);
      const type = buf.readUInt16LE(off + 4);
      if (type === NLMSG_DONE) return true;
      if (type === NLMSG_ERROR || len < NLMSG_HDRLEN || off + len > n) return false;
      if (len >= NLMSG_HDRLEN + MSG_LEN) {
        const msg = off + NLMSG_HDRLEN;
        // The state is asked for; a message in another one is not taken as a listener.
        const inode = buf.readUInt32LE(msg + MSG_INODE);
        if (buf.readUInt8(msg + 1) === TCP_LISTEN && inode > 0)
          ports.set(inode, buf.readUInt16BE(msg + MSG_SPORT));
      }
      off += (len + 3) & ~3;
    }
  }
}
