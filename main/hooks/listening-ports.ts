import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * TCP ports the given processes listen on (Linux: their socket inodes from /proc/<pid>/fd matched
 * against the LISTEN rows, state 0A, of /proc/net/tcp and tcp6). Only for the few leftovers a hook
 * reports, never the whole table. Unknown (other platform, unreadable) → no entry.
 */
export function listeningPorts(pids: readonly number[], procRoot = '/proc'): Map<number, number[]> {
  const inodeOwner = new Map<string, number>();
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`${procRoot}/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`${procRoot}/${pid}/fd/${fd}`));
        if (m) inodeOwner.set(m[1]!, pid);
      } catch {
        // Closed while we looked.
      }
    }
  }
  const out = new Map<number, number[]>();
  if (inodeOwner.size === 0) return out;
  for (const table of ['tcp', 'tcp6']) {
    let text: string;
    try {
      text = readFileSync(`${procRoot}/net/${table}`, 'latin1');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10 || f[3] !== '0A') continue;
      const pid = inodeOwner.get(f[9]!);
      if (pid === undefined) continue;
      const port = parseInt(f[1]!.split(':')[1] ?? '', 16);
      if (!Number.isFinite(port)) continue;
      const list = out.get(pid) ?? [];
      if (!list.includes(port)) list.push(port);
      out.set(pid, list);
    }
  }
  return out;
}
