import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mergePaths, parseMarkedPath, readLoginShellPath } from '../../main/electron/login-shell-path';
import { isAlive } from '../support/proc';
import { waitFor } from '../support/wait-for';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'corral-login-shell-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

/** What a GUI app started by launchd has: no rc-file additions. */
const guiEnv = (): Record<string, string> => ({
  SHELL: '/bin/bash',
  HOME: home,
  PATH: '/usr/bin:/bin',
  LC_ALL: 'C',
});

describe('readLoginShellPath with a real bash login shell', () => {
  it('reads the PATH the login rc files build, past their own output', async () => {
    writeFileSync(
      join(home, '.bash_profile'),
      'echo "Welcome back"\nexport PATH="/opt/homebrew/bin:$HOME/.npm-global/bin:$PATH"\nprintf "noise without newline"\n',
    );
    const result = await readLoginShellPath(guiEnv());
    // /etc/profile sets the system's part first (as macOS's /etc/zprofile runs path_helper), then the
    // user's ~/.bash_profile puts its own entries ahead of it.
    expect(result).toMatchObject({ path: expect.stringMatching(/:\/usr\/bin(:|$)/) });
    const path = (result as { path: string }).path;
    expect(path.startsWith(`/opt/homebrew/bin:${home}/.npm-global/bin:`)).toBe(true);
    expect(path).not.toContain('Welcome');
  });

  it('gives up after the time limit and ends the shell and what its rc file started', async () => {
    writeFileSync(join(home, '.bash_profile'), 'sleep 600 &\necho $! > "$HOME/sleep.pid"\nwait\n');
    const started = Date.now();
    const result = await readLoginShellPath(guiEnv(), 500);
    expect(result).toEqual({ problem: '/bin/bash -ilc did not answer within 500 ms' });
    expect(Date.now() - started).toBeLessThan(5000);
    const sleepPid = Number(readFileSync(join(home, 'sleep.pid'), 'utf8'));
    // Linux: /proc says dead (a zombie counts); elsewhere signal 0 to the exact pid fails once it is reaped.
    const gone = (): boolean => {
      if (process.platform === 'linux') return !isAlive(sleepPid);
      try {
        process.kill(sleepPid, 0);
        return false;
      } catch {
        return true;
      }
    };
    await waitFor('the rc file’s sleep to be ended', () => (gone() ? true : undefined));
  });

  it('takes the PATH as soon as it is printed, though an rc file’s job holds the output open, and ends that job', async () => {
    writeFileSync(join(home, '.bash_profile'), 'sleep 600 &\necho $! > "$HOME/sleep.pid"\n');
    const result = await readLoginShellPath(guiEnv(), 60_000);
    expect(result).toMatchObject({ path: expect.stringMatching(/:\/usr\/bin(:|$)/) });
    const sleepPid = Number(readFileSync(join(home, 'sleep.pid'), 'utf8'));
    await waitFor('the rc file’s sleep to be ended', () => (isAlive(sleepPid) ? undefined : true));
  });

  it('says so when the shell cannot be started', async () => {
    const result = await readLoginShellPath({ ...guiEnv(), SHELL: join(home, 'no-such-shell') });
    expect(result).toMatchObject({ problem: expect.stringContaining('no-such-shell') });
  });
});

describe('parseMarkedPath and mergePaths', () => {
  it('needs both markers', () => {
    expect(parseMarkedPath('x__CORRAL_LOGIN_PATH__/a:/b__CORRAL_LOGIN_PATH__y')).toBe('/a:/b');
    expect(parseMarkedPath('__CORRAL_LOGIN_PATH__/a:/b')).toBeNull();
    expect(parseMarkedPath('__CORRAL_LOGIN_PATH____CORRAL_LOGIN_PATH__')).toBeNull();
  });

  it('puts the login entries first and keeps the app’s own that are missing, once each', () => {
    expect(mergePaths('/opt/homebrew/bin:/usr/bin::/bin', '/usr/bin:/bin:/app/extra')).toBe(
      '/opt/homebrew/bin:/usr/bin:/bin:/app/extra',
    );
  });
});
