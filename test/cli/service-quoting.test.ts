// `corral service install` with paths systemd and launchd read differently from a shell: quotes and
// backslashes in the program path and the environment, control characters refused, CORRAL_CONFIG
// carried, and a unit the user edited kept (backed up) by uninstall.
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { launchAgentPlist } from '../../main/core/user-service/launchd-plist';
import { systemdUnitText } from '../../main/core/user-service/systemd-unit';
import { runCli } from '../support/run-cli';
import { tempDirsRemovedAfterEach } from '../support/temp-dirs';

const plist = createRequire(import.meta.url)('plist') as { parse(xml: string): unknown };
const temp = tempDirsRemovedAfterEach();
const has = (cmd: string): boolean => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
const noSystemd = !has('systemd-analyze') || !has('systemctl');
if (noSystemd)
  console.log('service-quoting.test.ts: the systemd cases skipped, systemd-analyze or systemctl is missing');

const ODD = `it's "quoted" \\back`;

function verifyUserUnit(unit: string, home: string): { status: number | null; stderr: string } {
  const r = spawnSync('systemd-analyze', ['--user', 'verify', unit], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, XDG_RUNTIME_DIR: temp('corral-runtime-') },
  });
  return { status: r.status, stderr: r.stderr };
}

function userUnitDir(home: string): string {
  const dir = join(home, '.config/systemd/user');
  mkdirSync(dir, { recursive: true });
  return dir;
}

describe.skipIf(process.platform !== 'linux' || noSystemd)(
  'corral service: the systemd unit',
  { timeout: 120_000 },
  () => {
    it('a program path with a quote, a double quote and a backslash: a unit systemd accepts, running exactly that program', () => {
      const home = temp('corral-service-home-');
      const bin = join(home, ODD);
      mkdirSync(bin, { recursive: true });
      const program = join(bin, 'corral');
      // The program prints its own path and arguments, so what the unit's command line runs can be seen.
      writeFileSync(program, '#!/bin/sh\nprintf "%s|" "$0" "$@"\n', { mode: 0o755 });
      const unit = join(userUnitDir(home), 'corral-watch.service');
      const text = systemdUnitText({
        argv: [program],
        path: '/usr/bin:/bin',
        dataDir: join(home, `data ${ODD}`),
        configPath: join(home, `config ${ODD}.json`),
      });
      writeFileSync(unit, text);
      expect(verifyUserUnit(unit, home)).toEqual({ status: 0, stderr: '' });
      // What the unit runs: systemd unquotes the words (here the shell does, for \" \\ and $$ as systemd
      // would), then sh execs its $0, the program's path, whole.
      const exec = /^ExecStart=(.*)$/m.exec(text)![1]!;
      const words = JSON.parse(
        spawnSync(process.execPath, ['-e', systemdWordsScript, exec], { encoding: 'utf8' }).stdout,
      ) as string[];
      const ran = spawnSync(words[0]!, words.slice(1), { encoding: 'utf8' });
      expect(ran.stdout).toBe(`${program}|watch|--json|`);
      expect(text).toContain(
        `Environment="CORRAL_CONFIG=${join(home, `config it's \\"quoted\\" \\\\back.json`)}"`,
      );
    });

    it('install refuses a CORRAL_DATA_DIR or CORRAL_CONFIG holding a newline (no ExecStartPre= of its own), writing nothing', async () => {
      const home = temp('corral-service-home-');
      for (const env of <Record<string, string>[]>[
        { CORRAL_DATA_DIR: `${home}/data\nExecStartPre=/bin/touch ${home}/pwned` },
        { CORRAL_CONFIG: `${home}/c.json\nExecStartPre=/bin/touch ${home}/pwned` },
      ]) {
        const r = await runCli(['service', 'install'], { env: { HOME: home, ...env } });
        expect(r.code).toBe(1);
        expect(r.stderr).toMatch(
          /^corral service: CORRAL_(DATA_DIR|CONFIG) \(.*\) holds a control character \(\\x0a\), which a service file cannot carry; nothing was written\n$/,
        );
        expect(existsSync(join(home, '.config/systemd/user/corral-watch.service'))).toBe(false);
      }
    });

    it('install passes CORRAL_CONFIG with CORRAL_DATA_DIR, quoted so systemd reads them whole', async () => {
      const home = temp('corral-service-home-');
      const env = {
        HOME: home,
        CORRAL_DATA_DIR: join(home, `data ${ODD}`),
        CORRAL_CONFIG: join(home, `c ${ODD}.json`),
      };
      const install = await runCli(['service', 'install', '--json'], { env });
      expect(install.code).toBe(0);
      const unit = join(home, '.config/systemd/user/corral-watch.service');
      const text = readFileSync(unit, 'utf8');
      expect(text).toContain(
        `Environment="CORRAL_CONFIG=${join(home, `c it's \\"quoted\\" \\\\back.json`)}"`,
      );
      expect(text).toContain(
        `Environment="CORRAL_DATA_DIR=${join(home, `data it's \\"quoted\\" \\\\back`)}"`,
      );
      expect(verifyUserUnit(unit, home)).toEqual({ status: 0, stderr: '' });
      expect((await runCli(['service', 'uninstall'], { env })).code).toBe(0);
    });

    it('uninstall backs up a unit the user edited before removing it, and says where', async () => {
      const home = temp('corral-service-home-');
      const env = { HOME: home };
      expect((await runCli(['service', 'install'], { env })).code).toBe(0);
      const dir = join(home, '.config/systemd/user');
      const unit = join(dir, 'corral-watch.service');
      appendFileSync(unit, '# my own tweak\nNice=10\n');
      const edited = readFileSync(unit, 'utf8');
      const uninstall = await runCli(['service', 'uninstall'], { env });
      expect(uninstall.code).toBe(0);
      expect(existsSync(unit)).toBe(false);
      const backups = readdirSync(dir).filter((n) => n.startsWith('corral-watch.service.corral-backup-'));
      expect(backups).toHaveLength(1);
      expect(readFileSync(join(dir, backups[0]!), 'utf8')).toBe(edited);
      expect(uninstall.stdout).toContain(`your version is kept in ${join(dir, backups[0]!)}`);

      // Not edited: removed, with no backup.
      const home2 = temp('corral-service-home-');
      expect((await runCli(['service', 'install'], { env: { HOME: home2 } })).code).toBe(0);
      const again = await runCli(['service', 'uninstall'], { env: { HOME: home2 } });
      expect(again.stdout).not.toContain('kept in');
      // The unit, its enable link and the folders install made are gone: no backup beside them either.
      expect(existsSync(join(home2, '.config/systemd'))).toBe(false);
    });
  },
);

/** Splits an ExecStart= value into words as systemd does for these quotings (double quotes, \\ \" escapes, $$). */
const systemdWordsScript = String.raw`
const s = process.argv[1]; const words = []; let i = 0;
while (i < s.length) {
  while (s[i] === ' ') i++; if (i >= s.length) break;
  let w = '';
  if (s[i] === '"') { i++; while (s[i] !== '"') { if (s[i] === '\\') i++; w += s[i++]; } i++; }
  else while (i < s.length && s[i] !== ' ') w += s[i++];
  words.push(w.replaceAll('$$', '$').replaceAll('%%', '%'));
}
process.stdout.write(JSON.stringify(words));`;

describe('corral service: the LaunchAgent plist', () => {
  it('escapes quotes, carries CORRAL_CONFIG, and refuses control characters', () => {
    const spec = {
      argv: [`/Users/a/${ODD}/corral`],
      path: '/usr/bin:/bin',
      dataDir: `/d ${ODD}`,
      configPath: `/c <${ODD}>.json`,
    };
    const parsed = plist.parse(launchAgentPlist(spec, '/Users/a')) as {
      ProgramArguments: string[];
      EnvironmentVariables: Record<string, string>;
    };
    expect(parsed.ProgramArguments).toEqual([`/Users/a/${ODD}/corral`, 'watch', '--json']);
    expect(parsed.EnvironmentVariables).toEqual({
      PATH: '/usr/bin:/bin',
      CORRAL_DATA_DIR: `/d ${ODD}`,
      CORRAL_CONFIG: `/c <${ODD}>.json`,
    });
    expect(() => launchAgentPlist({ ...spec, dataDir: '/d\n</string>' }, '/Users/a')).toThrow(
      /holds a control character/,
    );
    expect(() => launchAgentPlist({ ...spec, configPath: '/c\u0000' }, '/Users/a')).toThrow(
      /holds a control character/,
    );
  });
});
