import { readdirSync, readFileSync } from 'node:fs';
import { endianness } from 'node:os';
import { forEachFdLink } from './fd-links';
import { parseSocketTable } from './socket-table';

const LITTLE_ENDIAN = endianness() === 'LE';

/** Who listens on one TCP port: the pids holding a listening socket on it, and the sockets' owners. */
export interface PortListener {
  port: number;
  /** Processes holding one of the port's listening sockets; empty when none could be read. */
  pids: number[];
  /** The sockets' owners (uid column of /proc/net/tcp), known even when their processes are not. */
  uids: number[];
}

/**
 * The listeners of the given TCP ports (Linux): the LISTEN rows of /proc/net/tcp and tcp6 for those
 * ports (read by socket-table.ts, the one parser of those tables), then the processes whose
 * /proc/<pid>/fd holds one of those sockets. A port with no listening socket has no entry. The fd scan visits every process (several may share a socket after a
 * fork) and stops at `deadline` (ms, Date.now clock): an agent waits for the hook that asks.
 */
export function portListeners(
  ports: readonly number[],
  { procRoot = '/proc', deadline = Infinity }: { procRoot?: string; deadline?: number } = {},
): Map<number, PortListener> {
  const out = new Map<number, PortListener>();
  const portOfInode = new Map<string, number>();
  for (const table of ['tcp', 'tcp6'] as const) {
    let text: string;
    try {
      text = readFileSync(`${procRoot}/net/${table}`, 'latin1');
    } catch {
      continue;
    }
    const { listening, ownerOf } = parseSocketTable(text, table, LITTLE_ENDIAN);
    for (const [inode, { port }] of listening) {
      if (!ports.includes(port)) continue;
      const entry = out.get(port) ?? { port, pids: [], uids: [] };
      const uid = ownerOf.get(inode);
      if (uid !== undefined && !entry.uids.includes(uid)) entry.uids.push(uid);
      out.set(port, entry);
      portOfInode.set(String(inode), port);
    }
  }
  if (portOfInode.size === 0) return out;
  let pids: string[];
  try {
    pids = readdirSync(procRoot).filter((name) => /^\d+$/.test(name));
  } catch {
    return out;
  }
  for (const pid of pids) {
    if (Date.now() > deadline) break;
    forEachFdLink(pid, procRoot, (_fd, target) => {
      if (!target.startsWith('socket:[')) return;
      const port = portOfInode.get(target.slice(8, -1));
      if (port === undefined) return;
      const entry = out.get(port)!;
      if (!entry.pids.includes(Number(pid))) entry.pids.push(Number(pid));
    });
  }
  return out;
}
