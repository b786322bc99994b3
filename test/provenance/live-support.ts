import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import type { GroupView } from '../../shared/model';
import { runCli } from '../support/run-cli';
import { waitFor } from '../support/wait-for';
import { tempDirForTest } from '../support/spawned-groups';

export const CLI_ENV = { CORRAL_CONFIG: '/nonexistent' };

/** A fresh git work tree (real `git init`) with a subdirectory to work in. */
export function gitWorkTree(): { root: string; sub: string } {
  const root = realpathSync(tempDirForTest('corral-project-'));
  execFileSync('git', ['init', '-q', root]);
  const sub = join(root, 'web', 'app');
  mkdirSync(sub, { recursive: true });
  return { root, sub };
}

/** A port nothing listens on right now (the kernel picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export const waitListening = (port: number): Promise<boolean> =>
  waitFor(`port ${port} accepting`, () => accepts(port), { timeoutMs: 15_000 });

export async function psGroups(args: string[] = ['--all']): Promise<GroupView[]> {
  const ps = await runCli(['ps', '--json', ...args], { env: CLI_ENV });
  if (ps.code !== 0) throw new Error(`corral ps failed (${ps.code}): ${ps.stderr}`);
  return (JSON.parse(ps.stdout) as { groups: GroupView[] }).groups;
}
