import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AS_NOBODY } from '../support/as-nobody';
import { runCli } from '../support/run-cli';
import { tempDirForTest } from '../support/spawned-groups';

const asRoot = process.getuid?.() === 0;

/** Can `nobody` read the file? (`cat` as another user, with no groups.) */
function nobodyReads(path: string): boolean {
  const run = spawnSync(AS_NOBODY[0]!, [...AS_NOBODY.slice(1), 'cat', path], { encoding: 'utf8' });
  if (run.error) throw run.error;
  return run.status === 0;
}

/** A HOME as users have it: others may enter it and ~/.claude (0755), and its files were written 0644. */
function openHome(): { home: string; claude: string; env: Record<string, string> } {
  const home = tempDirForTest('corral-secret-home-');
  chmodSync(home, 0o755);
  const claude = join(home, '.claude');
  mkdirSync(claude, { mode: 0o755 });
  chmodSync(claude, 0o755);
  return { home, claude, env: { HOME: home, CORRAL_DATA_DIR: join(home, 'data') } };
}

const mode = (path: string): number => statSync(path).mode & 0o777;

describe('hooks install --http: the token is never readable by another user', { timeout: 120_000 }, () => {
  it.skipIf(!asRoot)(
    'an existing 0644 settings file, its backup and earlier backups become 0600; nobody reads none of them',
    async () => {
      const { claude, env } = openHome();
      const settings = join(claude, 'settings.json');
      writeFileSync(settings, '{\n  "model": "opus"\n}\n', { mode: 0o644 });
      chmodSync(settings, 0o644);
      // What nobody can reach in this HOME: a 0644 file beside it is read, so a refusal below is the mode's.
      const control = join(claude, 'control.txt');
      writeFileSync(control, 'readable\n', { mode: 0o644 });
      chmodSync(control, 0o644);
      expect(nobodyReads(control)).toBe(true);

      const first = await runCli(['hooks', 'install', '--agent', 'claude-code', '--http'], { env });
      expect(first.code).toBe(0);
      expect(readFileSync(settings, 'utf8')).toMatch(/"x-corral-token": "[0-9a-f]{64}"/);
      expect(mode(settings)).toBe(0o600);
      expect(nobodyReads(settings)).toBe(false);

      // Uninstall, and install again: the second backup holds the token of the first install.
      expect((await runCli(['hooks', 'uninstall', '--agent', 'claude-code'], { env })).code).toBe(0);
      expect((await runCli(['hooks', 'install', '--agent', 'claude-code', '--http'], { env })).code).toBe(0);
      const backups = readdirSync(claude).filter((n) => n.startsWith('settings.json.corral-backup-'));
      expect(backups.length).toBeGreaterThanOrEqual(2);
      expect(backups.some((b) => readFileSync(join(claude, b), 'utf8').includes('x-corral-token'))).toBe(
        true,
      );
      for (const b of backups) {
        expect(mode(join(claude, b))).toBe(0o600);
        expect(nobodyReads(join(claude, b))).toBe(false);
      }
      expect(nobodyReads(settings)).toBe(false);

      // A settings file that already holds the token but was loosened to 0644: an install that changes
      // nothing still makes it the user's alone.
      chmodSync(settings, 0o644);
      const again = await runCli(['hooks', 'install', '--agent', 'claude-code', '--http'], { env });
      expect(again.code).toBe(0);
      expect(mode(settings)).toBe(0o600);
      expect(nobodyReads(settings)).toBe(false);
    },
  );

  it.skipIf(!asRoot)('a settings file created by install --http is 0600', async () => {
    const { claude, env } = openHome();
    const settings = join(claude, 'settings.json');
    const install = await runCli(['hooks', 'install', '--agent', 'claude-code', '--http'], {
      env: { ...env },
    });
    expect(install.code).toBe(0);
    expect(readFileSync(settings, 'utf8')).toContain('x-corral-token');
    expect(mode(settings)).toBe(0o600);
    expect(nobodyReads(settings)).toBe(false);
  });
});

describe('hooks install through a dotfiles link', { timeout: 120_000 }, () => {
  it('writes the link’s target in place and leaves the link a link', async () => {
    const { home, claude, env } = openHome();
    const dotfiles = join(home, 'dotfiles', 'claude');
    mkdirSync(dotfiles, { recursive: true });
    const target = join(dotfiles, 'settings.json');
    writeFileSync(target, '{\n  "model": "opus"\n}\n', { mode: 0o644 });
    const settings = join(claude, 'settings.json');
    symlinkSync('../dotfiles/claude/settings.json', settings);

    const install = await runCli(['hooks', 'install', '--agent', 'claude-code'], { env });
    expect(install.code).toBe(0);
    expect(lstatSync(settings).isSymbolicLink()).toBe(true);
    expect(readlinkSync(settings)).toBe('../dotfiles/claude/settings.json');
    const written = JSON.parse(readFileSync(target, 'utf8')) as { model: string; hooks: object };
    expect(written.model).toBe('opus');
    expect(Object.keys(written.hooks)).toContain('PostToolUse');
    // The temporary file was renamed in the target's folder; nothing is left beside either.
    expect(readdirSync(dotfiles)).toEqual(['settings.json']);
    expect(readdirSync(claude).filter((n) => n.includes('corral-tmp'))).toEqual([]);

    const uninstall = await runCli(['hooks', 'uninstall', '--agent', 'claude-code'], { env });
    expect(uninstall.code).toBe(0);
    expect(lstatSync(settings).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('{\n  "model": "opus"\n}\n');
  });

  it('refuses a link to a file that is not a regular file of the user’s, and leaves the link', async () => {
    const { home, claude, env } = openHome();
    const elsewhere = join(home, 'not-a-file');
    mkdirSync(elsewhere);
    const settings = join(claude, 'settings.json');
    symlinkSync(elsewhere, settings);
    const install = await runCli(['hooks', 'install', '--agent', 'claude-code'], { env });
    expect(install.code).toBe(1);
    expect(install.stdout + install.stderr).toContain(settings);
    expect(lstatSync(settings).isSymbolicLink()).toBe(true);
  });
});
