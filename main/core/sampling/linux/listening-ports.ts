import { readFileSync, readlinkSync } from 'node:fs';
import { endianness } from 'node:os';
import type { ListeningPort } from '../../../../shared/model';
import { compareAddresses, compareCodeUnits } from '../../../../shared/text-order';
import { forEachFdLink } from './fd-links';
import { parseInodeColumn, parseSocketTable, type SocketProtocol } from './socket-table';

const PROTOCOLS: readonly SocketProtocol[] = ['tcp', 'tcp6', 'udp', 'udp6'];
/** Tables of sockets that never listen on TCP or UDP (proc(5)); each costs a fraction of one TCP table. */
const OTHER_FAMILIES = ['unix', 'netlink'] as const;
const SOCKET_LINK = /^socket:\[(\d+)\]$/;
const LITTLE_ENDIAN = endianness() === 'LE';

/**
 * How long a socket that was in no table (an inet socket not yet bound or listening, or one of a family
 * no table lists) is taken as not listening before the tables are read again: it may call listen() next.
 */
export const SOCKET_TABLE_MAX_AGE_MS = 5000;
/**
 * How long anything else is trusted: a listener stays one until it is closed (its descriptor goes, which
 * the next read of descriptors sees), and a Unix or connected socket does not start listening; this
 * bounds the rare exceptions (shutdown() of a listener, a connection dissolved and then listening).
 */
export const SETTLED_SOCKETS_MAX_AGE_MS = 60_000;

/** What a socket inode was at the last read of the tables. */
type KnownSocket = ListeningPort | 'settled' | 'unsettled';

/**
 * The sockets each of `pids` is listening on. Only the given pids' descriptors are read (one readdir
 * and a readlink per descriptor), and the socket tables at most once per network namespace per call,
 * through `/proc/<pid>/net/…` so that a process in a container's namespace is matched with its own
 * tables. A pid whose descriptors are unreadable (gone, another user's) is absent from the result.
 *
 * Reading a TCP table walks every bucket of the kernel's established hash (`established_get_first` in
 * net/ipv4/tcp_ipv4.c), about 5 ms each for tcp and tcp6 here even when nearly empty, so the reader
 * remembers what each socket inode was and reads the tables again only when it meets a socket it has
 * not seen, when a socket that was in no table is older than `maxAgeMs`, or when what it knows is older
 * than `settledMaxAgeMs`. An agent's idle processes (Node hands its children socketpairs: Unix sockets)
 * then cost no table reads at all.
 */
export class ListeningPortReader {
  /** Socket inode → what it was when the tables were read for it, and when (inodes are unique machine-wide). */
  private known = new Map<number, { socket: KnownSocket; at: number }>();

  constructor(
    private readonly procRoot = '/proc',
    private readonly maxAgeMs = SOCKET_TABLE_MAX_AGE_MS,
    private readonly now: () => number = () => performance.now(),
    private readonly settledMaxAgeMs = Math.max(maxAgeMs, SETTLED_SOCKETS_MAX_AGE_MS),
  ) {}

  read(pids: Iterable<number>): Map<number, ListeningPort[]> {
    const inodesByPid = new Map<number, number[]>();
    const now = this.now();
    let stale = false;
    for (const pid of pids) {
      const inodes = socketInodes(pid, this.procRoot);
      if (inodes === null) continue;
      inodesByPid.set(pid, inodes);
      if (!stale) stale = inodes.some((i) => this.isStale(i, now));
    }
    if (stale) this.refresh(inodesByPid, now);
    const out = new Map<number, ListeningPort[]>();
    for (const [pid, inodes] of inodesByPid) out.set(pid, this.portsOf(inodes));
    return out;
  }

  private isStale(inode: number, now: number): boolean {
    const known = this.known.get(inode);
    if (known === undefined) return true;
    const age = now - known.at;
    return age > this.settledMaxAgeMs || (known.socket === 'unsettled' && age > this.maxAgeMs);
  }

  private refresh(inodesByPid: ReadonlyMap<number, number[]>, now: number): void {
    // What was not asked about for long is forgotten (its sockets are closed, or their holders no longer asked).
    for (const [inode, known] of this.known)
      if (now - known.at > this.settledMaxAgeMs) this.known.delete(inode);
    const tablesByNamespace = new Map<string, SocketTables>();
    for (const [pid, inodes] of inodesByPid) {
      if (inodes.length === 0) continue;
      const namespace = readLink(`${this.procRoot}/${pid}/ns/net`) ?? `pid:${pid}`;
      let tables = tablesByNamespace.get(namespace);
      if (!tables) {
        tables = readTables(`${this.procRoot}/${pid}/net`);
        tablesByNamespace.set(namespace, tables);
      }
      for (const inode of inodes)
        this.known.set(inode, { socket: classify(inode, tables) ?? 'unsettled', at: now });
    }
    // The tables list every socket of their namespace: what else they name is known afresh too, so that
    // processes asked about at other times are not each the reason for another read.
    for (const tables of tablesByNamespace.values())
      for (const [inode, known] of this.known) {
        if (known.at === now) continue;
        const socket = classify(inode, tables);
        if (socket) this.known.set(inode, { socket, at: now });
      }
  }

  private portsOf(inodes: readonly number[]): ListeningPort[] {
    return distinctPorts(
      inodes.map((inode) => {
        const socket = this.known.get(inode)?.socket;
        return typeof socket === 'object' ? socket : null;
      }),
    );
  }
}

/** One look, no memory: for a command that asks once. */
export function readListeningPorts(pids: Iterable<number>, procRoot = '/proc'): Map<number, ListeningPort[]> {
  return new ListeningPortReader(procRoot, -1).read(pids);
}

/**
 * The TCP ports the given processes listen on, each port once, in order: what a hook reports of the few
 * leftovers it names. Only the TCP tables are read (tcp and tcp6, once per network namespace), and only
 * for processes holding a socket. `ownNamespaceListeners` (socket inode → port of every TCP listener in
 * this thread's network namespace: the running service's sock_diag dump, tcp-listener-diag.ts) stands in
 * for the tables of a process in that namespace; null from it, and the tables are read. A port is named
 * only for a socket inode the process holds. Unknown (other platform, unreadable) → no entry.
 */
export function listeningTcpPorts(
  pids: Iterable<number>,
  procRoot = '/proc',
  ownNamespaceListeners?: () => Map<number, number> | null,
): Map<number, number[]> {
  const out = new Map<number, number[]>();
  const byNamespace = new Map<string, Map<number, number>>();
  let ownNamespace: string | null | undefined;
  for (const pid of pids) {
    const inodes = socketInodes(pid, procRoot);
    if (inodes === null || inodes.length === 0) continue;
    // Inodes are unique machine-wide, but a namespace's listeners are only in its own tables.
    const namespace = readLink(`${procRoot}/${pid}/ns/net`) ?? `pid:${pid}`;
    let listeners = byNamespace.get(namespace);
    if (!listeners) {
      ownNamespace ??= ownNamespaceListeners ? readLink('/proc/thread-self/ns/net') : null;
      listeners =
        (namespace === ownNamespace ? ownNamespaceListeners!() : null) ??
        tcpListenersFromTables(`${procRoot}/${pid}/net`);
      byNamespace.set(namespace, listeners);
    }
    const ports = new Set<number>();
    for (const inode of inodes) {
      const port = listeners.get(inode);
      if (port !== undefined) ports.add(port);
    }
    if (ports.size > 0)
      out.set(
        pid,
        [...ports].sort((a, b) => a - b),
      );
  }
  return out;
}

function tcpListenersFromTables(netDir: string): Map<number, number> {
  const listeners = new Map<number, number>();
  for (const protocol of ['tcp', 'tcp6'] as const) {
    const text = readTable(`${netDir}/${protocol}`);
    if (text === null) continue;
    for (const [inode, port] of parseSocketTable(text, protocol, LITTLE_ENDIAN).listening)
      listeners.set(inode, port.port);
  }
  return listeners;
}

/** One of each listener (a socket shared by several descriptors counts once), in port order. */
export function distinctPorts(found: Iterable<ListeningPort | null | undefined>): ListeningPort[] {
  const seen = new Set<string>();
  const ports: ListeningPort[] = [];
  for (const port of found) {
    if (!port) continue;
    const key = `${port.protocol} ${port.address} ${port.port}`;
    if (seen.has(key)) continue;
    seen.add(key);
    ports.push(port);
  }
  return ports.sort(comparePorts);
}

export function comparePorts(a: ListeningPort, b: ListeningPort): number {
  return (
    a.port - b.port || compareCodeUnits(a.protocol, b.protocol) || compareAddresses(a.address, b.address)
  );
}

function socketInodes(pid: number, procRoot: string): number[] | null {
  const inodes: number[] = [];
  const readable = forEachFdLink(pid, procRoot, (_fd, link) => {
    const match = SOCKET_LINK.exec(link);
    if (match) inodes.push(Number(match[1]));
  });
  return readable ? inodes : null;
}

interface SocketTables {
  listening: Map<number, ListeningPort>;
  /** Sockets that are not listening and will not start: connected ones, Unix and netlink sockets. */
  settled: Set<number>;
}

function classify(inode: number, tables: SocketTables): ListeningPort | 'settled' | null {
  return tables.listening.get(inode) ?? (tables.settled.has(inode) ? 'settled' : null);
}

function readTables(netDir: string): SocketTables {
  const tables: SocketTables = { listening: new Map(), settled: new Set() };
  for (const protocol of PROTOCOLS) {
    const text = readTable(`${netDir}/${protocol}`);
    if (text === null) continue;
    const { listening, connected } = parseSocketTable(text, protocol, LITTLE_ENDIAN);
    for (const [inode, port] of listening) tables.listening.set(inode, port);
    for (const inode of connected) tables.settled.add(inode);
  }
  for (const family of OTHER_FAMILIES) {
    const text = readTable(`${netDir}/${family}`);
    if (text !== null) for (const inode of parseInodeColumn(text)) tables.settled.add(inode);
  }
  return tables;
}

function readTable(path: string): string | null {
  try {
    return readFileSync(path, 'latin1');
  } catch {
    return null; // no IPv6 (or no Unix sockets) in this kernel, or the process is gone
  }
}

function readLink(path: string): string | null {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
}
