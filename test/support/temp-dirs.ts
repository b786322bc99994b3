import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';
import { removeDir } from './spawned-groups';

/**
 * Makes a test file's temporary directories: each one new under the system's temporary directory,
 * named from `prefix`, and all of them removed after each test. Call it once, at the top of the file.
 */
export function tempDirsRemovedAfterEach(): (prefix: string) => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) removeDir(dir);
  });
  return (prefix) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
}

/**
 * A temporary directory named from `prefix` that the whole test file shares, removed after its tests.
 * Call it at the top of the file (it registers an afterAll hook on the file).
 */
export function tempDirRemovedAfterAll(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => removeDir(dir));
  return dir;
}
