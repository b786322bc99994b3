import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { tempDirForTest, trackGroup } from './spawned-groups';
import { tmpdirEnv } from './test-tmpdir';
import { waitFor } from './wait-for';

const BUILT_CLI = fileURLToPath(new URL('../../out/main/corral.js', import.meta.url));

export interface ServeProcess {
  url: string;
  pid: number;
  /** The server's HOME (agents' settings files go here), with its config.json and data/. */
  home: string;
  stop(): Promise<number | null>;
}

/**
 * Starts the built `corral serve` with test-sized settings, on a free loopback port or on `port`
 * (to restart a server where an open page expects it), with any extra `args` (e.g. `--metrics`), after
 * `prepare` filled its data directory.
 */
export async function startServe(
  config: Record<string, unknown>,
  {
    port = 0,
    args = [],
    prepare,
  }: { port?: number; args?: string[]; prepare?: (home: string, dataDir: string) => void } = {},
): Promise<ServeProcess> {
  const dir = tempDirForTest('corral-serve-');
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
  // What the data directory holds before serve opens it (a history recorded earlier).
  prepare?.(dir, join(dir, 'data'));
  const child = spawn(process.execPath, [BUILT_CLI, 'serve', '--port', String(port), ...args], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: dir,
      ...tmpdirEnv(),
      CORRAL_CONFIG: join(dir, 'config.json'),
      CORRAL_DATA_DIR: join(dir, 'data'),
    },
  });
  trackGroup(child.pid!);
  let url: string | null = null;
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  createInterface({ input: child.stdout }).on('line', (line) => {
    const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(line);
    if (m) url = m[1]!;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await waitFor(`corral serve to print its URL (stderr: ${stderr})`, () => url ?? undefined, {
    timeoutMs: 20_000,
  });
  return {
    url: url!,
    pid: child.pid!,
    home: dir,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}
