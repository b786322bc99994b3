// deploy/homebrew: the formula and the cask carry package.json's version (scripts/sync-homebrew.mjs
// --check), the script writes versions and checksums, and Ruby parses both files (`ruby -c`; `brew
// audit` needs a tap and runs in the macOS job).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir } from '../support/spawned-groups';

const root = join(__dirname, '../..');
const script = join(root, 'scripts/sync-homebrew.mjs');
const homebrew = join(root, 'deploy/homebrew');
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
const rubySkip = spawnSync('ruby', ['--version']).status === 0 ? null : 'ruby is not installed';
if (rubySkip) console.log(`homebrew.test.ts: the ruby -c check skipped, ${rubySkip}`);

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) removeDir(d);
});

function sync(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [script, ...args], { encoding: 'utf8' });
}

describe('deploy/homebrew', () => {
  it('is in step with package.json', () => {
    expect(sync('--check')).toMatchObject({ status: 0, stderr: '' });
    expect(readFileSync(join(homebrew, 'corral.rb'), 'utf8')).toContain(
      `url "https://registry.npmjs.org/corral/-/corral-${version}.tgz"`,
    );
    expect(readFileSync(join(homebrew, 'corral-app.rb'), 'utf8')).toContain(`version "${version}"`);
  });

  it('--check names a file left at another version; the script brings it back and sets the checksums', () => {
    const dir = mkdtempSync(join(tmpdir(), 'corral-homebrew-'));
    dirs.push(dir);
    cpSync(homebrew, dir, { recursive: true });
    const cask = join(dir, 'corral-app.rb');
    const formula = join(dir, 'corral.rb');
    writeFileSync(cask, readFileSync(cask, 'utf8').replace(`version "${version}"`, 'version "0.0.1"'));
    writeFileSync(
      formula,
      readFileSync(formula, 'utf8').replace(`corral-${version}.tgz`, 'corral-0.0.1.tgz'),
    );
    const stale = sync('--check', '--dir', dir);
    expect(stale.status).toBe(1);
    expect(stale.stderr).toContain(`${cask}: version 0.0.1, package.json has ${version}`);
    expect(stale.stderr).toContain(`${formula}: version 0.0.1, package.json has ${version}`);

    const files = { tarball: 'tarball bytes', arm: 'arm64 dmg bytes', x64: 'x64 dmg bytes' };
    const paths = Object.fromEntries(
      Object.entries(files).map(([k, v]) => {
        const p = join(dir, k);
        writeFileSync(p, v);
        return [k, p];
      }),
    );
    const hash = (s: string): string => createHash('sha256').update(s).digest('hex');
    expect(
      sync('--dir', dir, '--tarball', paths.tarball!, '--dmg-arm64', paths.arm!, '--dmg-x64', paths.x64!)
        .status,
    ).toBe(0);
    expect(sync('--check', '--dir', dir).status).toBe(0);
    expect(readFileSync(formula, 'utf8')).toContain(`sha256 "${hash(files.tarball)}"`);
    expect(readFileSync(cask, 'utf8')).toMatch(
      new RegExp(`arm:\\s+"${hash(files.arm)}",\\s+intel: "${hash(files.x64)}"`),
    );
  });

  it.skipIf(rubySkip !== null)('both files are valid Ruby (ruby -c)', () => {
    for (const file of ['corral.rb', 'corral-app.rb']) {
      const r = spawnSync('ruby', ['-c', join(homebrew, file)], { encoding: 'utf8' });
      expect({ file, status: r.status, out: r.stdout.trim() }).toEqual({ file, status: 0, out: 'Syntax OK' });
    }
  });
});

describe('deploy/homebrew: brew services start corral', () => {
  it.skipIf(rubySkip !== null)('gives the service a PATH on which Homebrew’s node is found', () => {
    const prefix = mkdtempSync(join(tmpdir(), 'corral-brew-prefix-'));
    dirs.push(prefix);
    mkdirSync(join(prefix, 'bin'));
    writeFileSync(join(prefix, 'bin', 'node'), '#!/bin/sh\necho homebrew node\n', { mode: 0o755 });
    const r = spawnSync(
      'ruby',
      [join(__dirname, 'homebrew-service.rb'), join(homebrew, 'corral.rb'), prefix],
      { encoding: 'utf8' },
    );
    expect(r.stderr).toBe('');
    const spec = JSON.parse(r.stdout) as { run: string[]; environment_variables: { PATH?: string } };
    expect(spec.run).toEqual([join(prefix, 'opt/corral/bin/corral'), 'watch', '--json']);
    // What `#!/usr/bin/env node` does in the service: look node up on the service's PATH.
    const found = spawnSync('/bin/sh', ['-c', 'node'], {
      env: { PATH: spec.environment_variables.PATH ?? '/usr/bin:/bin:/usr/sbin:/sbin' },
      encoding: 'utf8',
    });
    expect(found.stdout.trim()).toBe('homebrew node');
  });
});
