import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../support/installed-package';
import { cleanEnv, tempDirForTest } from '../support/spawned-groups';

// `bin/corral.mjs` loads the built CLI by path: a path is not a URL, and an install directory whose name
// holds `#`, `%` or `?` must still run every command, and the hook must still exit 0.

const VERSION = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;

/** The package as installed (its launcher, the built CLI and hook, package.json, its dependencies) under `name`. */
function installUnder(name: string): string {
  const root = join(tempDirForTest('corral-odd-path-'), name);
  mkdirSync(root);
  for (const entry of ['bin', 'out', 'package.json'])
    cpSync(join(REPO, entry), join(root, entry), { recursive: true });
  symlinkSync(join(REPO, 'node_modules'), join(root, 'node_modules'));
  return root;
}

function corral(root: string, args: string[], stdin = '', env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [join(root, 'bin', 'corral.mjs'), ...args], {
    input: stdin,
    encoding: 'utf8',
    env: cleanEnv(env),
    timeout: 60_000,
  });
}

describe('an install path with #, % and ?', { timeout: 120_000 }, () => {
  it.each([['with #1'], ['100%41 done'], ['what?x=1'], ['all #%? of them']])(
    '"%s": corral --version runs, and corral hook exits 0 with no stack trace',
    (name) => {
      const root = installUnder(name);
      const version = corral(root, ['--version']);
      expect(version.stderr).toBe('');
      expect(version.status).toBe(0);
      expect(version.stdout.trim()).toBe(`corral ${VERSION}`);

      const data = tempDirForTest('corral-odd-path-data-');
      const payload = JSON.stringify({
        session_id: '3f0e5a52-7a53-4c55-9a51-2f1d8f6c0b11',
        hook_event_name: 'PostToolUse',
        tool_name: 'Bash',
        tool_use_id: 'toolu_01OddPath',
        tool_input: { command: 'true' },
        cwd: '/tmp',
      });
      const hook = corral(root, ['hook', 'claude-code', 'PostToolUse'], payload, {
        HOME: data,
        CORRAL_DATA_DIR: data,
      });
      expect(hook.status).toBe(0);
      expect(hook.stderr).not.toMatch(/^\s+at /m);
      expect(hook.stderr).toBe('');
    },
  );

  it('a hook whose built entry fails to load still exits 0, saying why on one line', () => {
    const root = installUnder('broken #hook');
    cpSync(join(REPO, 'package.json'), join(root, 'out', 'main', 'corral-hook.js'));
    const hook = corral(root, ['hook', 'claude-code', 'PostToolUse'], '{}');
    expect(hook.status).toBe(0);
    expect(hook.stdout).toBe('');
    expect(hook.stderr.trim().split('\n')).toHaveLength(1);
    expect(hook.stderr).not.toMatch(/^\s+at /m);
  });
});
