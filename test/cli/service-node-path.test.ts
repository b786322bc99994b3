// The PATH `corral service install` gives the service names Node by a path that outlives `brew upgrade
// node`: Homebrew's node is a link in <prefix>/bin into Cellar/node/<version>/bin, and Node reports only
// the real (versioned) path as its execPath. Laid out here as Homebrew lays it out, with a real upgrade
// (the old version's directory removed, the link moved), and a real shell finding `node` by that PATH.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { servicePath, stableNodeDir } from '../../main/core/user-service/corral-command';
import { tempDirsRemovedAfterEach } from '../support/temp-dirs';

const temp = tempDirsRemovedAfterEach();

/** A Homebrew prefix with node <version> in its Cellar and <prefix>/bin/node linked to it. */
function homebrewNode(prefix: string, version: string): string {
  const bin = join(prefix, 'Cellar', 'node', version, 'bin');
  mkdirSync(bin, { recursive: true });
  const node = join(bin, 'node');
  writeFileSync(node, `#!/bin/sh\necho node ${version}\n`);
  chmodSync(node, 0o755);
  mkdirSync(join(prefix, 'bin'), { recursive: true });
  rmSync(join(prefix, 'bin', 'node'), { force: true });
  symlinkSync(join('..', 'Cellar', 'node', version, 'bin', 'node'), join(prefix, 'bin', 'node'));
  return node;
}

/** What a service started with PATH=`path` runs as `node` (as `#!/usr/bin/env node` finds it). */
function nodeFoundBy(path: string): string {
  const r = spawnSync('/bin/sh', ['-c', 'node'], { env: { PATH: path }, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : `exit ${r.status}`;
}

describe('the service finds Node after the Node that installed it is upgraded', () => {
  it('names the PATH directory whose node is this Node, not the versioned Cellar directory', () => {
    const prefix = temp('corral-brew-');
    const execPath = homebrewNode(prefix, '24.1.0');
    const env = { PATH: `/usr/bin:${join(prefix, 'bin')}:/bin` };
    expect(stableNodeDir(execPath, env)).toBe(join(prefix, 'bin'));
    const path = servicePath(execPath, env);
    expect(nodeFoundBy(path)).toBe('node 24.1.0');

    // brew upgrade node: the new version is poured, the link moves, the old version is cleaned up.
    homebrewNode(prefix, '24.2.0');
    rmSync(join(prefix, 'Cellar', 'node', '24.1.0'), { recursive: true });
    expect(nodeFoundBy(path)).toBe('node 24.2.0');
    // What the service was given before: the Cellar directory of the version it was installed with.
    expect(
      nodeFoundBy(`${join(prefix, 'Cellar', 'node', '24.1.0', 'bin')}:/usr/local/bin:/usr/bin:/bin`),
    ).not.toBe('node 24.2.0');
  });

  it('falls back to the binary’s own directory when no PATH entry leads to it', () => {
    const prefix = temp('corral-brew-');
    const execPath = homebrewNode(prefix, '24.1.0');
    renameSync(join(prefix, 'bin'), join(prefix, 'elsewhere'));
    expect(stableNodeDir(execPath, { PATH: '/usr/bin:/bin' })).toBe(
      join(prefix, 'Cellar', 'node', '24.1.0', 'bin'),
    );
  });
});
