import { execFile, execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  symlinkSync,
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
  appLocationProblem,
  cliArguments,
  cliWrapperScript,
  installCliPrivileged,
  installCliWrapper,
  NO_NODE_MESSAGE,
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
 * A Corral.app laid out as the packaged one: its CLI unpacked beside app.asar (here the checkout, whose
 * bin/corral.mjs runs the build), and as Contents/MacOS/Corral a stand-in for Electron where no GUI
 * session is: Electron creates NSApplication before any JavaScript and aborts (SIGABRT) without Launch
 * Services (electron/electron#52815). It leaves a mark, so a test also knows it was never started.
 */
function appStandIn(launcherRoot = root): string {
  const contents = join(home, 'Corral.app', 'Contents');
  const app = join(contents, 'MacOS', 'Corral');
  mkdirSync(join(app, '..'), { recursive: true });
  mkdirSync(join(contents, 'Resources'), { recursive: true });
  symlinkSync(launcherRoot, join(contents, 'Resources', 'app.asar.unpacked'));
  writeFileSync(app, `#!/bin/sh\ntouch ${JSON.stringify(join(home, 'electron-started'))}\nkill -ABRT $$\n`);
  chmodSync(app, 0o755);
  return app;
}

/** A directory holding only `node` (this test's Node), so a PATH can offer Node and the system's tools. */
function nodeDir(): string {
  const dir = join(home, 'node-bin');
  mkdirSync(dir, { recursive: true });
  symlinkSync(process.execPath, join(dir, 'node'));
  return dir;
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
      env: { PATH: `${nodeDir()}:${loginPath}`, HOME: home, LC_ALL: 'C' },
      encoding: 'utf8',
    });
    expect(out).toMatch(/^corral \d+\.\d+\.\d+/);
    expect(existsSync(join(home, 'electron-started'))).toBe(false);
  });

  it('runs long-lived and install commands and the hook without ever starting the app’s binary', () => {
    const target = join(home, 'corral');
    installCliWrapper(target, appStandIn());
    const env = {
      PATH: `${nodeDir()}:/usr/bin:/bin`,
      HOME: home,
      LC_ALL: 'C',
      CORRAL_DATA_DIR: join(home, 'data'),
    };
    const ps = spawnSync(target, ['ps', '--json'], { env, encoding: 'utf8' });
    expect(ps.status).toBe(0);
    expect(JSON.parse(ps.stdout)).toHaveProperty('groups');
    const dryRun = spawnSync(target, ['hooks', 'install', '--dry-run'], { env, encoding: 'utf8' });
    expect({ status: dryRun.status, stderr: dryRun.stderr }).toEqual({ status: 0, stderr: '' });
    const hook = spawnSync(target, ['hook', 'claude-code', 'PostToolUse'], {
      env,
      input: JSON.stringify({ hook_event_name: 'PostToolUse', session_id: 's', tool_name: 'Bash' }),
      encoding: 'utf8',
    });
    expect(hook.status).toBe(0);
    expect(existsSync(join(home, 'electron-started'))).toBe(false);
  });

  it('without Node a hook exits 0 and says nothing; other commands say what is missing', () => {
    const target = join(home, 'corral');
    installCliWrapper(target, appStandIn());
    const env = { PATH: '/nonexistent', HOME: home };
    const hook = spawnSync('/bin/sh', [target, 'hook', 'claude-code', 'PostToolUse'], {
      env,
      input: '{}',
      encoding: 'utf8',
    });
    expect({ status: hook.status, stdout: hook.stdout, stderr: hook.stderr }).toEqual({
      status: 0,
      stdout: '',
      stderr: '',
    });
    const ps = spawnSync('/bin/sh', [target, 'ps'], { env, encoding: 'utf8' });
    expect({ status: ps.status, stderr: ps.stderr.trim() }).toEqual({ status: 127, stderr: NO_NODE_MESSAGE });
    expect(existsSync(join(home, 'electron-started'))).toBe(false);
  });

  it('passes every argument through unchanged, spaces and quotes included', () => {
    const fake = join(home, 'fake-root');
    mkdirSync(join(fake, 'bin'), { recursive: true });
    writeFileSync(
      join(fake, 'bin', 'corral.mjs'),
      'for (const a of process.argv.slice(2)) process.stdout.write(`[${a}]`);\n',
    );
    const target = join(home, 'corral');
    installCliWrapper(target, appStandIn(fake));
    const out = execFileSync(target, ['ps', "it's", 'a b'], {
      encoding: 'utf8',
      env: { PATH: `${nodeDir()}:/usr/bin:/bin` },
    });
    expect(out).toBe("[ps][it's][a b]");
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

  it('refuses to point the command at a translocated copy or one outside Applications', () => {
    const translocated =
      '/private/var/folders/xy/abc/T/AppTranslocation/1A2B3C/d/Corral.app/Contents/MacOS/Corral';
    expect(appLocationProblem(translocated, false)).toMatch(/App Translocation/);
    expect(appLocationProblem('/Users/me/Downloads/Corral.app/Contents/MacOS/Corral', false)).toMatch(
      /not in Applications/,
    );
    expect(appLocationProblem('/Applications/Corral.app/Contents/MacOS/Corral', true)).toBeNull();
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

  it('says once that notifications are off, with the way to allow them, instead of opening the window', () => {
    const snapshot = { seq: 1, sampledAt: 1, groups: [] };
    const state = { now: 1, notificationsPausedUntil: null, launchAtLogin: false };
    expect(buildTrayMenuModel(snapshot, { ...state, notificationsBlocked: true }).items).toContainEqual({
      type: 'action',
      label: 'Notifications are off for Corral: allow them…',
      action: { kind: 'open-notification-settings' },
    });
    const fine = buildTrayMenuModel(snapshot, state).items;
    expect(fine.some((i) => 'label' in i && i.label.startsWith('Notifications are off'))).toBe(false);
  });
});
