import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { tempDirForTest, trackGroup } from './spawned-groups';
import { tmpdirEnv } from './test-tmpdir';
import { waitFor } from './wait-for';

const BUILT_CLI = fileURLToPath(new URL('../../out/main/corral.js', import.meta.url));

export interface MetricsProcess {
  /** The URL it printed, e.g. http://127.0.0.1:40123/metrics. */
  url: string;
  port: number;
  pid: number;
  stderr(): string;
  stop(): Promise<number | null>;
}

/** Starts the built `corral metrics` with test-sized settings, in a process group of its own. */
export async function startMetricsProcess(
  args: string[],
  { config = {}, env = {} }: { config?: Record<string, unknown>; env?: Record<string, string> } = {},
): Promise<MetricsProcess> {
  const dir = tempDirForTest('corral-metrics-');
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
  const child = spawn(process.execPath, [BUILT_CLI, 'metrics', ...args], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: dir,
      ...tmpdirEnv(),
      CORRAL_CONFIG: join(dir, 'config.json'),
      CORRAL_DATA_DIR: join(dir, 'data'),
      ...env,
    },
  });
  trackGroup(child.pid!);
  let url: string | null = null;
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  createInterface({ input: child.stdout }).on('line', (line) => {
    const m = /(http:\/\/\S+\/metrics)/.exec(line);
    if (m) url = m[1]!;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await waitFor(`corral metrics to print its URL (stderr: ${stderr})`, () => url ?? undefined, {
    timeoutMs: 20_000,
  });
  return {
    url: url!,
    port: Number(new URL(url!).port),
    pid: child.pid!,
    stderr: () => stderr,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}
