import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { endianness } from 'node:os';
import type { ListeningPort } from '../../../../shared/model';
import { parseListeningSockets, type SocketProtocol } from './socket-table';

const PROTOCOLS: readonly SocketProtocol[] = ['tcp', 'tcp6', 'udp', 'udp6'];
const SOCKET_LINK = /^socket:\[(\d+)\]$/;
const LITTLE_ENDIAN = endianness() === 'LE';

/**
 * The sockets each of `pids` is listening on. Only the given pids' descriptors are read (one readdir
 * and a readlink per descriptor), and the socket tables once per network namespace per call, through
 * `/proc/<pid>/net/…` so that a process in a container's namespace is matched with its own tables.
 * A pid whose descriptors are unreadable (gone, another user's) is absent from the result.
 */
export function readListeningPorts(pids: Iterable<number>, procRoot = '/proc'): Map<number, ListeningPort[]> {
  const tablesByNamespace = new Map<string, Map<number, ListeningPort>>();
  const out = new Map<number, ListeningPort[]>();
  for (const pid of pids) {
    const inodes = socketInodes(pid, procRoot);
    if (inodes === null) continue;
    if (inodes.length === 0) {
      out.set(pid, []);
      continue;
    }
    const namespace = readLink(`${procRoot}/${pid}/ns/net`) ?? `pid:${pid}`;
    let table = tablesByNamespace.get(namespace);
    if (!table) {
      table = readTables(`${procRoot}/${pid}/net`);
      tablesByNamespace.set(namespace, table);
    }
    const seen = new Set<string>();
    const ports: ListeningPort[] = [];
    for (const inode of inodes) {
      const port = table.get(inode);
      if (!port) continue;
      const key = `${port.protocol} ${port.address} ${port.port}`;
      if (seen.has(key)) continue;
      seen.add(key);
      ports.push(port);
    }
    out.set(pid, ports.sort(comparePorts));
  }
  return out;
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
