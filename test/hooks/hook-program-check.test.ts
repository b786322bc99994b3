import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { missingHookProgram, shellWords } from '../../main/core/hooks-setup/hook-program-check';
import { removeDir } from '../support/spawned-groups';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) removeDir(d);
});

function binDir(...names: string[]): string {
  const d = mkdtempSync(join(tmpdir(), 'corral-hook-prog-'));
  dirs.push(d);
  for (const n of names) {
    writeFileSync(join(d, n), '#!/bin/sh\n');
    chmodSync(join(d, n), 0o755);
  }
  return d;
}

describe('missingHookProgram (what hooks status reports as gone)', () => {
  it('splits quoted words as a shell does', () => {
    expect(shellWords(`'/opt/my apps/node' "/a \\"b\\"/corral.mjs" hook claude-code Stop`)).toEqual([
      '/opt/my apps/node',
      '/a "b"/corral.mjs',
      'hook',
      'claude-code',
      'Stop',
    ]);
    expect(shellWords(`/x/y\\ z/corral hook codex Stop`)).toEqual(['/x/y z/corral', 'hook', 'codex', 'Stop']);
  });

  it('accepts an existing absolute command and an existing node + script', () => {
    const d = binDir('corral', 'node', 'corral.mjs');
    expect(missingHookProgram(`${d}/corral hook claude-code Stop`, { PATH: '' })).toBeNull();
    expect(missingHookProgram(`${d}/node '${d}/corral.mjs' hook codex Stop`, { PATH: '' })).toBeNull();
  });

  it('names a program, a script or a PATH command that is gone', () => {
    const d = binDir('node');
    expect(missingHookProgram(`${d}/corral hook claude-code Stop`, { PATH: '' })).toBe(`${d}/corral`);
    expect(missingHookProgram(`${d}/node ${d}/gone/bin/corral.mjs hook codex Stop`, { PATH: '' })).toBe(
      `${d}/gone/bin/corral.mjs`,
    );
    expect(missingHookProgram(`corral hook codex Stop`, { PATH: d })).toBe('corral (not found on PATH)');
    expect(missingHookProgram(`corral hook codex Stop`, { PATH: binDir('corral') })).toBeNull();
  });
});
