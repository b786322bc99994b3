import { chmodSync, lstatSync, rmSync } from 'node:fs';
import { connect } from 'node:net';

import { hookSocketPath, socketPathTooLong } from '../core/hooks-setup/hook-socket-path';
import { DataDirRefused, ensureOwnDataDir, lstatOrNull } from '../core/storage/own-data-dir';
import type { ServiceHookContext } from './hook-answer';
import { hookRequestHandler, newHookServerStats, type HookServerStats } from './hook-request-handler';
import { cappedHookServer, closeServer } from './hook-server';

export interface RunningHookSocket {
  path: string;
  stats: HookServerStats;
  close(): Promise<void>;
}

/** Whether something accepts a connection on the socket at `path`. */
function answersOn(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(path);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Makes way for the socket: the hooks folder must be the user's own and reachable by no one else
 * (0700); a socket left at `path` by a Corral that is gone is removed, but only when it is a socket of
 * the user's and nothing answers on it: a live one belongs to another Corral on the same data
 * directory, which keeps it (this one then answers no command hooks, and says so).
 */
async function clearWay(dataDir: string, path: string): Promise<void> {
  const folder = ensureOwnDataDir(dataDir, 'hooks');
  const uid = process.geteuid?.();
  const st = lstatSync(folder);
  if ((st.mode & 0o077) !== 0) {
    // The folder is the user's (checked above): close it to others rather than answer through it.
    chmodSync(folder, 0o700);
  }
  const old = lstatOrNull(path);
  if (!old) return;
  if (!old.isSocket() || (uid !== undefined && old.uid !== uid)) {
    throw new DataDirRefused(
      `Corral refuses ${path} in its data directory: it is not a socket of yours. Corral writes only its own files there; move it aside.`,
    );
  }
  if (await answersOn(path)) {
    throw new Error(
      `another Corral already answers hooks on ${path} (the same data directory); this one leaves it to that one`,
    );
  }
  rmSync(path);
}

/**
 * Answers command hooks (the hook client, hook-client-script.ts) on `<data dir>/hooks/hook.sock`: a
 * channel only the user can open (the folder is the user's own, 0700), so it needs no token, and the
 * client, which checks the folder and socket are its user's before sending anything, knows the answer
 * is its own Corral's. The requests and caps are those of hook-request-handler.ts.
 */
export async function startHookSocketServer(
  dataDir: string,
  context: () => ServiceHookContext,
  onError: (err: unknown) => void,
  stats: HookServerStats = newHookServerStats(),
): Promise<RunningHookSocket> {
  const path = hookSocketPath(dataDir);
  const tooLong = socketPathTooLong(path);
  if (tooLong) throw new Error(tooLong);
  await clearWay(dataDir, path);
  const server = cappedHookServer(hookRequestHandler(stats, context, onError, () => true));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      server.on('error', onError);
      resolve();
    });
  });
  chmodSync(path, 0o600);
  const ours = lstatSync(path);
  return {
    path,
    stats,
    close: async () => {
      await closeServer(server);
      // Node unlinks its socket on close; a socket another Corral put there since is left alone.
      const now = lstatOrNull(path);
      if (now && now.ino === ours.ino && now.dev === ours.dev) rmSync(path, { force: true });
    },
  };
}
