import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { endianness } from 'node:os';
import type { ListeningPort } from '../../../../shared/model';
import { parseListeningSockets, type SocketProtocol } from './socket-table';

const PROTOCOLS: readonly SocketProtocol[] = ['tcp', 'tcp6', 'udp', 'udp6'];
const SOCKET_LINK = /^socket:\[(\d+)\]$/;
const LITTLE_ENDIAN = endianness() === 'LE';

/**
 * Reading a socket table walks every bucket of the kernel's hash tables, so it costs milliseconds
 * even when nearly empty: a reader remembers what each socket inode was and reads the tables again
 * only when it meets a socket it has not seen, or when what it knows is older than this.
 */
export const SOCKET_TABLE_MAX_AGE_MS = 5000;

/**
 * The sockets each of `pids` is listening on. Only the given pids' descriptors are read (one readdir
 * and a readlink per descriptor), and the socket tables at most once per network namespace per call,
 * through `/proc/<pid>/net/…` so that a process in a container's namespace is matched with its own
 * tables. A pid whose descriptors are unreadable (gone, another user's) is absent from the result.
 */
export class ListeningPortReader {
  /** Socket inode → what it was when the tables were last read (null: not listening, or not TCP/UDP). */
  private known = new Map<number, ListeningPort | null>();
  private readAt = -Infinity;

  constructor(
    private readonly procRoot = '/proc',
    private readonly maxAgeMs = SOCKET_TABLE_MAX_AGE_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  read(pids: Iterable<number>): Map<number, ListeningPort[]> {
    const inodesByPid = new Map<number, number[]>();
    let unknown = this.now() - this.readAt > this.maxAgeMs;
    for (const pid of pids) {
      const inodes = socketInodes(pid, this.procRoot);
      if (inodes === null) continue;
      inodesByPid.set(pid, inodes);
      if (!unknown) unknown = inodes.some((i) => !this.known.has(i));
    }
    if (unknown) this.refresh(inodesByPid);
    const out = new Map<number, ListeningPort[]>();
    for (const [pid, inodes] of inodesByPid) out.set(pid, portsOf(inodes, this.known));
    return out;
  }

  private refresh(inodesByPid: ReadonlyMap<number, number[]>): void {
    const tablesByNamespace = new Map<string, Map<number, ListeningPort>>();
    const known = new Map<number, ListeningPort | null>();
    for (const [pid, inodes] of inodesByPid) {
      if (inodes.length === 0) continue;
      const namespace = readLink(`${this.procRoot}/${pid}/ns/net`) ?? `pid:${pid}`;
      let table = tablesByNamespace.get(namespace);
      if (!table) {
        table = readTables(`${this.procRoot}/${pid}/net`);
        tablesByNamespace.set(namespace, table);
      }
      for (const inode of inodes) known.set(inode, table.get(inode) ?? null);
    }
    this.known = known;
    this.readAt = this.now();
  }
}

/** One look, no memory: for a command that asks once. */
export function readListeningPorts(pids: Iterable<number>, procRoot = '/proc'): Map<number, ListeningPort[]> {
  return new ListeningPortReader(procRoot, -1).read(pids);
}

function portsOf(
  inodes: readonly number[],
  known: ReadonlyMap<number, ListeningPort | null>,
): ListeningPort[] {
  return distinctPorts(inodes.map((inode) => known.get(inode)));
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
  return a.port - b.port || a.protocol.localeCompare(b.protocol) || a.address.localeCompare(b.address);
}

function socketInodes(pid: number, procRoot: string): number[] | null {
  let names: string[];
  try {
    names = readdirSync(`${procRoot}/${pid}/fd`);
  } catch {
    return null;
  }
  const inodes: number[] = [];
  for (const name of names) {
    const match = SOCKET_LINK.exec(readLink(`${procRoot}/${pid}/fd/${name}`) ?? '');
    if (match) inodes.push(Number(match[1]));
  }
  return inodes;
}

function readTables(netDir: string): Map<number, ListeningPort> {
  const all = new Map<number, ListeningPort>();
  for (const protocol of PROTOCOLS) {
    let text: string;
    try {
      text = readFileSync(`${netDir}/${protocol}`, 'latin1');
    } catch {
      continue; // no IPv6 in this kernel, or the process is gone
    }
    for (const [inode, port] of parseListeningSockets(text, protocol, LITTLE_ENDIAN)) all.set(inode, port);
  }
  return all;
}

function readLink(path: string): string | null {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
}
