import { readFileSync } from 'node:fs';
import { endianness } from 'node:os';
import { parseSocketTable } from '../sampling/linux/socket-table';

const LITTLE_ENDIAN = endianness() === 'LE';

/**
 * The owners (uid column) of the sockets listening on TCP `port`, from /proc/net/tcp and tcp6, which
 * every user may read: empty when nothing listens there, null when the tables cannot be read (not
 * Linux). Read before Corral sends a token to the port, and to say who holds it.
 */
export function tcpPortOwners(port: number, procRoot = '/proc'): number[] | null {
  const owners = new Set<number>();
  let read = false;
  for (const table of ['tcp', 'tcp6'] as const) {
    let text: string;
    try {
      text = readFileSync(`${procRoot}/net/${table}`, 'latin1');
    } catch {
      continue;
    }
    read = true;
    const { listening, ownerOf } = parseSocketTable(text, table, LITTLE_ENDIAN);
    for (const [inode, l] of listening) {
      if (l.port !== port) continue;
      const uid = ownerOf.get(inode);
      if (uid !== undefined) owners.add(uid);
    }
  }
  return read ? [...owners] : null;
}

/** "uid 65534", "uids 0 and 65534": the owners for a message. */
export function uidsText(uids: readonly number[]): string {
  return uids.length === 1 ? `uid ${uids[0]}` : `uids ${uids.join(' and ')}`;
}
