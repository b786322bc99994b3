import { execFile, execFileSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  cliArguments,
  cliWrapperScript,
  installCliPrivileged,
  installCliWrapper,
  planCliInstall,
  privilegedInstallScript,
} from '../../main/electron/cli-install';
import { buildTrayMenuModel } from '../../main/electron/tray-menu-model';

const root = resolve(__dirname, '../..');
let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'corral-cli-install-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

/**
 * A stand-in for Corral.app/Contents/MacOS/Corral that does what its `--cli` mode does (index.ts
 * runCli): the real CLI with the arguments after `--cli`, here through Node since Electron cannot run.
 */
function appStandIn(): string {
  const app = join(home, 'Corral.app', 'Contents', 'MacOS', 'Corral');
  mkdirSync(join(app, '..'), { recursive: true });
  writeFileSync(
    app,
    `#!/bin/sh\n[ "$1" = --cli ] || exit 64\nshift\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(root, 'bin', 'corral.mjs'))} "$@"\n`,
  );
  chmodSync(app, 0o755);
  return app;
}

describe('the installed corral command', () => {
  it('is found on PATH by a shell and runs the CLI through the app', () => {
    const bin = join(home, '.local', 'bin');
    mkdirSync(bin, { recursive: true });
    const loginPath = `/opt/homebrew/bin:${bin}:/usr/bin:/bin`;
    const plan = planCliInstall(loginPath, home);
    expect(plan).toEqual({ target: join(bin, 'corral'), privileged: false, onLoginPath: true });

    installCliWrapper(plan.target, appStandIn());
    expect(statSync(plan.target).mode & 0o777).toBe(0o755);
    const out = execFileSync('/bin/sh', ['-c', 'corral --version'], {
      env: { PATH: loginPath, HOME: home, LC_ALL: 'C' },
      encoding: 'utf8',
    });
    expect(out).toMatch(/^corral \d+\.\d+\.\d+/);
  });

  it('passes every argument through unchanged, spaces and quotes included', () => {
    const echo = join(home, 'echo-app');
    writeFileSync(echo, '#!/bin/sh\nfor a in "$@"; do printf "[%s]" "$a"; done\n');
    chmodSync(echo, 0o755);
    const target = join(home, 'corral');
    installCliWrapper(target, echo);
    expect(execFileSync(target, ['ps', "it's", 'a b'], { encoding: 'utf8' })).toBe("[--cli][ps][it's][a b]");
  });

  it('replaces its own wrapper but never a corral it did not install', () => {
    const target = join(home, 'corral');
    installCliWrapper(target, '/Applications/Corral.app/Contents/MacOS/Corral');
    installCliWrapper(target, "/Applications/Corral's copy.app/Contents/MacOS/Corral");
    expect(readFileSync(target, 'utf8')).toBe(
      cliWrapperScript("/Applications/Corral's copy.app/Contents/MacOS/Corral"),
    );
    writeFileSync(target, '#!/usr/bin/env node\n// npm install -g corral\n');
    expect(() => installCliWrapper(target, '/x')).toThrow(/is not Corral's wrapper/);
  });

  it('asks for privileges only when no directory on the login PATH is the user’s to write', () => {
    expect(planCliInstall('/usr/bin:/bin', home, () => true)).toEqual({
      target: '/usr/local/bin/corral',
      privileged: true,
      onLoginPath: true,
    });
    expect(planCliInstall(`/usr/local/bin:/usr/bin`, home, () => false)).toMatchObject({ privileged: true });
    const script = privilegedInstallScript('/tmp/a "b"/corral-cli', '/usr/local/bin/corral');
    expect(script).toBe(
      `do shell script "mkdir -p '/usr/local/bin' && cp '/tmp/a \\"b\\"/corral-cli' '/usr/local/bin/corral' && chmod 755 '/usr/local/bin/corral'" with administrator privileges`,
    );
  });

  it('the app runs as the CLI only when started with --cli', () => {
    expect(cliArguments(['/Applications/Corral.app/Contents/MacOS/Corral', '--cli', 'ps', '--json'])).toEqual(
      ['ps', '--json'],
    );
    expect(cliArguments(['/Applications/Corral.app/Contents/MacOS/Corral'])).toBeNull();
  });
});

/**
 * osascript's part, without the password prompt: runs the shell command of `do shell script "…" with
 * administrator privileges` (the tests run as root), and fails as osascript does when it fails.
 */
function runAppleScriptShell(appleScript: string): Promise<void> {
  const m = /^do shell script "((?:[^"\\]|\\.)*)" with administrator privileges$/.exec(appleScript);
  if (!m) return Promise.reject(new Error(`not a privileged do shell script: ${appleScript}`));
  const shell = m[1]!.replace(/\\(.)/g, '$1');
  return new Promise((resolve, reject) =>
    execFile('/bin/sh', ['-c', shell], (err) => (err ? reject(err) : resolve())),
  );
}

describe('the privileged install', () => {
  it('copies the staged wrapper to the target and leaves nothing in the temporary directory', async () => {
    const temp = join(home, 'temp');
    mkdirSync(temp);
    const target = join(home, 'usr local', 'bin', 'corral');
    const app = appStandIn();
    await installCliPrivileged(target, app, temp, runAppleScriptShell);
    expect(readFileSync(target, 'utf8')).toBe(cliWrapperScript(app));
    expect(statSync(target).mode & 0o777).toBe(0o755);
    expect(readdirSync(temp)).toEqual([]);
  });

  it('leaves nothing there either when the user cancels the password prompt', async () => {
    const temp = join(home, 'temp');
    mkdirSync(temp);
    const cancelled = new Error('User canceled. (-128)');
    let staged: string[] = [];
    await expect(
      installCliPrivileged(join(home, 'bin', 'corral'), appStandIn(), temp, () => {
        staged = readdirSync(temp);
        return Promise.reject(cancelled);
      }),
    ).rejects.toBe(cancelled);
    expect(staged).toHaveLength(1);
    expect(readdirSync(temp)).toEqual([]);
  });
});

describe('the tray offers it', () => {
  it('only where asked (the packaged macOS app)', () => {
    const snapshot = { seq: 1, sampledAt: 1, groups: [] };
    const state = { now: 1, notificationsPausedUntil: null, launchAtLogin: false };
    const offered = buildTrayMenuModel(snapshot, { ...state, offerCliInstall: true }).items;
    expect(offered).toContainEqual({
      type: 'action',
      label: 'Install command-line tool…',
      action: { kind: 'install-cli' },
    });
    const plain = buildTrayMenuModel(snapshot, state).items;
    expect(plain.some((i) => 'label' in i && i.label.startsWith('Install command-line'))).toBe(false);
  });
});
