import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { waitFor } from './wait-for';

/** The soft and hard RLIMIT_NOFILE of a process, from /proc/<pid>/limits. */
export function openFilesLimit(pid: number): { soft: number; hard: number } {
  const line = readFileSync(`/proc/${pid}/limits`, 'latin1')
    .split('\n')
    .find((l) => l.startsWith('Max open files'))!;
  const [soft, hard] = line.split(/\s+/).slice(3, 5).map(Number);
  return { soft: soft!, hard: hard! };
}

/** The lowest descriptor number free in a process's table: the one its next open would get. */
export function lowestFreeFd(pid: number): number {
  const used = new Set(readdirSync(`/proc/${pid}/fd`).map(Number));
  let fd = 0;
  while (used.has(fd)) fd++;
  return fd;
}

/** Whether a process's next open would fail with EMFILE: every descriptor below its soft limit is taken. */
export function tableFull(pid: number): boolean {
  return lowestFreeFd(pid) >= openFilesLimit(pid).soft;
}

export interface FdExhaustion {
  /** How the table was filled: held connections, or (where the server stopped taking them) a lowered limit. */
  how: 'connections' | 'lowered-limit';
  /** Lets go of every connection (and restores the limit), and waits until the process can open files again. */
  release(): Promise<void>;
}

/**
 * Fills the descriptor table of process `pid` from outside, as the attacker did: idle connections
 * to a loopback port or a Unix socket it listens on, each one a descriptor in its table, held until
 * `release`. A connection
 * the server drops (Node's idle-connection check) is made again, so the table stays full. Where the server
 * stops taking connections before its table is full (a connection cap), the rest is taken by lowering its
 * soft RLIMIT_NOFILE to the lowest free descriptor (prlimit), which release restores.
 */
export async function exhaustDescriptors(pid: number, endpoint: number | string): Promise<FdExhaustion> {
  const sockets = new Set<Socket>();
  let released = false;
  const open = (): void => {
    const socket =
      typeof endpoint === 'string'
        ? connect({ path: endpoint })
        : connect({ port: endpoint, host: '127.0.0.1' });
    sockets.add(socket);
    let connectedAt: number | null = null;
    socket.on('connect', () => (connectedAt = Date.now()));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      sockets.delete(socket);
      // Held a while, then dropped by the server's idle check: taken again. One closed at once was
      // accepted only to be closed (libuv does so while the table is full): the table is full without it.
      if (!released && connectedAt !== null && Date.now() - connectedAt > 1_000) open();
    });
  };
  const { soft, hard } = openFilesLimit(pid);
  let lastFree = -1;
  for (let attempts = 0; attempts < soft + 64 && !tableFull(pid); attempts += 8) {
    for (let i = 0; i < 8; i++) open();
    await new Promise((r) => setTimeout(r, 50));
    const free = lowestFreeFd(pid);
    // Eight more connections and not one more descriptor taken: the server takes no more.
    if (free === lastFree && attempts > 32) break;
    lastFree = free;
  }
  let how: FdExhaustion['how'] = 'connections';
  if (!tableFull(pid)) {
    how = 'lowered-limit';
    execFileSync('prlimit', ['--pid', String(pid), `--nofile=${lowestFreeFd(pid)}:${hard}`]);
  }
  await waitFor(`process ${pid}'s descriptor table to be full`, () => tableFull(pid));
  return {
    how,
    release: async () => {
      released = true;
      for (const socket of sockets) socket.destroy();
      if (how === 'lowered-limit')
        execFileSync('prlimit', ['--pid', String(pid), `--nofile=${soft}:${hard}`]);
      await waitFor(`process ${pid} to have descriptors free again`, () => !tableFull(pid));
    },
  };
}
