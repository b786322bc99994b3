// `corral service`: the systemd user unit and the LaunchAgent plist that run `corral watch`, written,
// checked by systemd-analyze, and removed again to the byte; the real start where a user manager runs.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { launchAgentPlist } from '../../main/core/user-service/launchd-plist';
import { systemdUnitText, systemdWord } from '../../main/core/user-service/systemd-unit';
import { runCli } from '../support/run-cli';
import { tempDirsRemovedAfterEach } from '../support/temp-dirs';

const plist = createRequire(import.meta.url)('plist') as { parse(xml: string): unknown };

const temp = tempDirsRemovedAfterEach();

/** Every path under `root` with its type and, for files, its content: a before/after fingerprint. */
function tree(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const s = statSync(path, { throwIfNoEntry: false });
      out.push(
        `${relative(root, path)} ${s?.isDirectory() ? 'dir' : s ? readFileSync(path, 'utf8') : 'dangling'}`,
      );
      if (s?.isDirectory()) walk(path);
    }
  };
  walk(root);
  return out;
}

const has = (cmd: string): boolean => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
const analyzeSkip = has('systemd-analyze') ? null : 'systemd-analyze is not installed';
const systemctlSkip = has('systemctl') ? null : 'systemctl is not installed';
if (analyzeSkip) console.log(`service.test.ts: the unit check skipped, ${analyzeSkip}`);

/**
 * `systemd-analyze --user verify`: as root with no user manager, it needs a runtime directory of its
 * own (XDG_RUNTIME_DIR) to start its offline manager; it then loads the unit as the user's manager would.
 */
function verifyUserUnit(unit: string, home: string): { status: number | null; stderr: string } {
  const runtime = temp('corral-runtime-');
  const r = spawnSync('systemd-analyze', ['--user', 'verify', unit], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, XDG_RUNTIME_DIR: runtime },
  });
  return { status: r.status, stderr: r.stderr };
}

describe.skipIf(process.platform !== 'linux')(
  'corral service (systemd user unit)',
  { timeout: 120_000 },
  () => {
    it.skipIf(systemctlSkip !== null)(
      'install writes and enables a unit systemd-analyze accepts; status reads it back; uninstall removes exactly it',
      async () => {
        const home = temp('corral-service-home-');
        mkdirSync(join(home, '.config'));
        const env = { HOME: home, CORRAL_DATA_DIR: join(home, 'data') };
        const before = tree(home);

        const install = await runCli(['service', 'install', '--json'], { env });
        expect(install.code).toBe(0);
        const report = JSON.parse(install.stdout) as Record<string, unknown>;
        const unit = join(home, '.config/systemd/user/corral-watch.service');
        expect(report).toMatchObject({ kind: 'systemd', path: unit, installed: true, enabled: true });
        const text = readFileSync(unit, 'utf8');
        // From a checkout: this Node and the checkout's launcher; the data directory the shell set.
        expect(text).toMatch(/^ExecStart=\S+ \S+\/bin\/corral\.mjs watch --json$/m);
        expect(text).toContain(`Environment=CORRAL_DATA_DIR=${join(home, 'data')}`);
        expect(
          readFileSync(join(home, '.config/systemd/user/default.target.wants/corral-watch.service'), 'utf8'),
        ).toBe(text);
        if (!analyzeSkip) expect(verifyUserUnit(unit, home)).toEqual({ status: 0, stderr: '' });

        const status = JSON.parse((await runCli(['service', 'status', '--json'], { env })).stdout) as {
          command: string;
          missingCommand?: string;
        };
        expect(status.command).toMatch(/bin\/corral\.mjs watch --json$/);
        expect(status.missingCommand).toBeUndefined();

        const uninstall = await runCli(['service', 'uninstall'], { env });
        expect(uninstall).toMatchObject({ code: 0 });
        expect(uninstall.stdout).toContain(`removed ${unit}`);
        expect(tree(home)).toEqual(before);
      },
    );

    it('leaves a unit it did not write alone, and says so', async () => {
      const home = temp('corral-service-home-');
      const unit = join(home, '.config/systemd/user/corral-watch.service');
      mkdirSync(join(home, '.config/systemd/user'), { recursive: true });
      const mine = '[Service]\nExecStart=/usr/local/bin/corral watch\n';
      spawnSync('sh', ['-c', `printf '%s' "$0" > "$1"`, mine, unit]);
      for (const action of ['install', 'uninstall']) {
        const r = await runCli(['service', action], { env: { HOME: home } });
        expect(r.code).toBe(1);
        expect(r.stderr).toContain(
          `${unit} was not written by corral service install; it was left untouched`,
        );
      }
      expect(readFileSync(unit, 'utf8')).toBe(mine);
    });

    it.skipIf(analyzeSkip !== null)(
      'quotes a program path with spaces, % and $ so systemd finds exactly it',
      () => {
        const home = temp('corral-service-home-');
        const bin = join(home, 'my tools', '100%', '$HOME');
        mkdirSync(bin, { recursive: true });
        spawnSync('sh', ['-c', 'printf "#!/bin/sh\\n" > "$0/corral" && chmod 755 "$0/corral"', bin]);
        const unitDir = join(home, '.config/systemd/user');
        mkdirSync(unitDir, { recursive: true });
        const unit = join(unitDir, 'corral-watch.service');
        spawnSync('sh', [
          '-c',
          'printf "%s" "$0" > "$1"',
          systemdUnitText({ argv: [join(bin, 'corral')], path: '/usr/bin:/bin' }),
          unit,
        ]);
        expect(systemdWord(join(bin, 'corral'), true)).toBe(
          `"${join(home, 'my tools', '100%%', '$HOME', 'corral')}"`,
        );
        expect(systemdWord('/a b/$HOME')).toBe('"/a b/$$HOME"');
        expect(verifyUserUnit(unit, home)).toEqual({ status: 0, stderr: '' });
      },
    );
  },
);

describe('corral service (launchd LaunchAgent plist)', () => {
  it('is a well-formed plist whose keys launchd reads, with every argument and path escaped', () => {
    const home = '/Users/a & b';
    const text = launchAgentPlist(
      { argv: ['/opt/homebrew/bin/corral'], path: '/opt/homebrew/bin:/usr/bin:/bin', dataDir: '/tmp/<data>' },
      home,
    );
    // electron-builder's own plist reader (the `plist` package, on xmldom): it throws on a malformed plist.
    const parsed = plist.parse(text);
    expect(text).toContain(
      '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    );
    expect(parsed).toEqual({
      Label: 'dev.corral.watch',
      ProgramArguments: ['/opt/homebrew/bin/corral', 'watch', '--json'],
      EnvironmentVariables: { PATH: '/opt/homebrew/bin:/usr/bin:/bin', CORRAL_DATA_DIR: '/tmp/<data>' },
      RunAtLoad: true,
      KeepAlive: { SuccessfulExit: false },
      ProcessType: 'Standard',
      StandardOutPath: '/dev/null',
      StandardErrorPath: '/Users/a & b/Library/Logs/corral-watch.log',
    });
    if (has('plutil')) {
      const dir = temp('corral-plist-');
      const file = join(dir, 'dev.corral.watch.plist');
      spawnSync('sh', ['-c', 'printf "%s" "$0" > "$1"', text, file]);
      expect(spawnSync('plutil', ['-lint', file], { encoding: 'utf8' }).status).toBe(0);
    }
  });
});
