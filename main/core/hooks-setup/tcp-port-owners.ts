import { existsSync } from 'node:fs';
import { portListeners } from '../sampling/hook-sampler';

/**
 * The owners (uid column) of the sockets listening on TCP `port`, from /proc/net/tcp and tcp6, which
 * every user may read: empty when nothing listens there, null when the tables cannot be read (not
 * Linux). Read before Corral sends a token to the port, and to say who holds it.
 */
export function tcpPortOwners(port: number, procRoot = '/proc'): number[] | null {
  if (!existsSync(`${procRoot}/net/tcp`)) return null;
  // No time for the scan of processes' descriptors: the tables' owners are all that is asked.
  return portListeners([port], { procRoot, deadline: 0 }).get(port)?.uids ?? [];
}

/** "uid 65534", "uids 0 and 65534": the owners for a message. */
export function uidsText(uids: readonly number[]): string {
  return uids.length === 1 ? `uid ${uids[0]}` : `uids ${uids.join(' and ')}`;
}
