// An agent's settings file swapped for a FIFO: `corral hooks status` and `install` say they cannot read
// it and go on, never wait for a writer that never comes. The real CLI, a temporary HOME.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/run-cli';
import { removeDir } from '../support/spawned-groups';

const homes: string[] = [];
afterEach(() => homes.splice(0).forEach(removeDir));

function homeWithFifoSettings(): { home: string; settings: string } {
  const home = mkdtempSync(join(tmpdir(), 'corral-hooks-fifo-'));
  homes.push(home);
  mkdirSync(join(home, '.claude'));
  const settings = join(home, '.claude', 'settings.json');
  execFileSync('mkfifo', [settings]);
  return { home, settings };
}

const env = (home: string) => ({
  HOME: home,
  CORRAL_CONFIG: join(home, 'config.json'),
  CORRAL_DATA_DIR: join(home, 'data'),
  CORRAL_HOOK_COMMAND: '/usr/local/bin/corral',
});

describe('a FIFO as an agent’s settings file', () => {
  it.each([['status'], ['install']])('corral hooks %s names it as unreadable and finishes', async (verb) => {
    const { home, settings } = homeWithFifoSettings();
    const run = await runCli(['hooks', verb, '--agent', 'claude-code'], {
      env: env(home),
      timeoutMs: 30_000,
    });
    expect(run.code).not.toBe(143); // not killed at the timeout: it finished by itself
    expect(`${run.stdout}${run.stderr}`).toContain(`cannot read ${settings} (not-a-regular-file)`);
  });
});
