// The installed `corral watch` (bin/corral.mjs running the built CLI) lets go of the file pages start-up
// alone touched, about 10 s after it starts (main/core/release-start-up-pages.ts), and runs on unharmed.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { START_UP_SETTLED_MS } from '../../main/core/release-start-up-pages';
import { cleanEnv, removeCreatedGroups, removeDir, trackGroup } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';
import { describeUnless } from '../support/skip';

const LAUNCHER = fileURLToPath(new URL('../../bin/corral.mjs', import.meta.url));
const BUILT_CLI = fileURLToPath(new URL('../../out/main/corral.js', import.meta.url));
const reason =
  process.platform !== 'linux'
    ? 'the release is Linux only'
    : !existsSync(BUILT_CLI)
      ? `${BUILT_CLI} is missing (npm run build)`
      : undefined;

const dirs: string[] = [];
afterEach(async () => {
  await removeCreatedGroups();
  for (const d of dirs.splice(0)) removeDir(d);
});

function rssFileKb(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'latin1');
    return Number(/^RssFile:\s+(\d+) kB/m.exec(status)?.[1]);
  } catch {
    return undefined;
  }
}

describeUnless(reason)('corral watch after start-up', () => {
  it('holds well under half the file-backed pages it started with, and still stops cleanly', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'corral-start-up-pages-'));
    dirs.push(dir);
    const child = spawn(process.execPath, [LAUNCHER, 'watch', '--json'], {
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: cleanEnv({
        HOME: dir,
        CORRAL_CONFIG: join(dir, 'config.json'),
        CORRAL_DATA_DIR: join(dir, 'data'),
      }),
    });
    trackGroup(child.pid!);
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const pid = child.pid!;

    // Start-up: the service is up once its storage exists; the most it held before the release.
    const startedAt = Date.now();
    await waitFor('the watch to open its data directory', () => existsSync(join(dir, 'data')), {
      timeoutMs: START_UP_SETTLED_MS / 2,
    });
    let startUpKb = 0;
    while (Date.now() - startedAt < START_UP_SETTLED_MS - 2000) {
      startUpKb = Math.max(startUpKb, rssFileKb(pid) ?? 0);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(startUpKb).toBeGreaterThan(20_000);

    let lastKb: number | undefined;
    await waitFor(
      'the file-backed resident set to fall below half of start-up',
      () => (lastKb = rssFileKb(pid)) !== undefined && lastKb < startUpKb / 2,
      {
        timeoutMs: 20_000,
        intervalMs: 250,
        explain: () => `start-up ${startUpKb} kB, now ${lastKb} kB; ${stderr}`,
      },
    );
    // Running on after the release (its sweeps fault their code back in), then its shutdown path.
    await new Promise((r) => setTimeout(r, 3000));
    expect(rssFileKb(pid), stderr).toBeLessThan(startUpKb / 2);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stderr).toBe('');
  }, 60_000);
});
