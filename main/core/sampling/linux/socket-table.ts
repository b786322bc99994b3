import type { ListeningPort } from '../../../../shared/model';

export type SocketProtocol = ListeningPort['protocol'];

/** TCP_LISTEN and TCP_CLOSE from the kernel's tcp_states.h: what /proc/net/{tcp,udp}* print as `st`. */
const TCP_LISTEN = '0A';
const UDP_UNCONNECTED = '07';

/**
 * The listening sockets in one /proc/net/{tcp,tcp6,udp,udp6} table (proc_net_tcp(5)), by socket inode:
 * TCP sockets in LISTEN, and UDP sockets that are bound but not connected (no remote port), which is
 * how a UDP server waits. Lines that are not of that shape are skipped.
 */
export function parseListeningSockets(
  text: string,
  protocol: SocketProtocol,
  littleEndian: boolean,
): Map<number, ListeningPort> {
  return parseSocketTable(text, protocol, littleEndian).listening;
}

/**
 * One /proc/net/{tcp,tcp6,udp,udp6} table: its listening sockets, and the inodes of the others in it
 * (connected, or closing): a socket the kernel lists in another state has been connected, and a connected
 * socket does not go on to listen. `ownerOf` gives each listening socket's owner (the `uid` column).
 */
export function parseSocketTable(
  text: string,
  protocol: SocketProtocol,
  littleEndian: boolean,
): { listening: Map<number, ListeningPort>; connected: Set<number>; ownerOf: Map<number, number> } {
  const listening = new Map<number, ListeningPort>();
  const connected = new Set<number>();
  const ownerOf = new Map<number, number>();
  const tcp = protocol === 'tcp' || protocol === 'tcp6';
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f.length < 10 || !f[0]!.endsWith(':')) continue;
    const [local, remote, state, inodeText] = [f[1]!, f[2]!, f[3]!, f[9]!];
    const inode = Number(inodeText);
    if (!Number.isSafeInteger(inode) || inode <= 0) continue;
    if (tcp ? state !== TCP_LISTEN : state !== UDP_UNCONNECTED || !remote.endsWith(':0000')) {
      connected.add(inode);
      continue;
    }
    const colon = local.lastIndexOf(':');
    const port = parseInt(local.slice(colon + 1), 16);
    const address = decodeAddress(local.slice(0, colon), littleEndian);
    if (address === null || !Number.isInteger(port)) continue;
    listening.set(inode, { protocol, address, port });
    const uid = Number(f[7]);
    if (Number.isSafeInteger(uid) && uid >= 0) ownerOf.set(inode, uid);
  }
  return { listening, connected, ownerOf };
}

/**
 * The socket inodes of /proc/net/unix or /proc/net/netlink (proc(5)): the column headed `Inode`, whose
 * place the header line gives. Such a socket never becomes a TCP or UDP listener.
 */
export function parseInodeColumn(text: string): Set<number> {
  const inodes = new Set<number>();
  const lines = text.split('\n');
  const column = (lines[0] ?? '').trim().split(/\s+/).indexOf('Inode');
  if (column < 0) return inodes;
  for (const line of lines.slice(1)) {
    const inode = Number(line.trim().split(/\s+/)[column]);
    if (Number.isSafeInteger(inode) && inode > 0) inodes.add(inode);
  }
  return inodes;
}

/**
 * The kernel prints an address as 32-bit words in host byte order (`%08X` of each word): on a
 * little-endian machine each word's bytes come out reversed.
 */
export function decodeAddress(hex: string, littleEndian: boolean): string | null {
  if ((hex.length !== 8 && hex.length !== 32) || !/^[0-9A-Fa-f]+$/.test(hex)) return null;
  const bytes: number[] = [];
  for (let w = 0; w < hex.length; w += 8) {
    const word = [0, 2, 4, 6].map((i) => parseInt(hex.slice(w + i, w + i + 2), 16));
    bytes.push(...(littleEndian ? word.reverse() : word));
  }
  if (bytes.length === 4) return bytes.join('.');
  return formatIpv6(bytes);
}

/** RFC 5952 text: lowercase, the longest run of two or more zero groups as `::`, IPv4-mapped as dotted. */
export function formatIpv6(bytes: number[]): string {
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((bytes[i]! << 8) | bytes[i + 1]!);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return `::ffff:${bytes.slice(12).join('.')}`;
  }
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const text = groups.map((g) => g.toString(16));
  if (bestStart < 0) return text.join(':');
  const head = text.slice(0, bestStart).join(':');
  const tail = text.slice(bestStart + bestLength).join(':');
  return `${head}::${tail}`;
}
