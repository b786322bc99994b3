import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AT_CLKTCK, AT_PAGESZ, auxvValue } from '../../main/core/sampling/linux/auxv';
import { removeDir } from '../support/spawned-groups';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) removeDir(d);
});

describe.skipIf(process.platform !== 'linux')('auxv: clock ticks and page size without getconf', () => {
  it('reads the same values getconf prints', () => {
    const getconf = (name: string): number => Number(execFileSync('getconf', [name], { encoding: 'utf8' }));
    expect(auxvValue(AT_CLKTCK)).toBe(getconf('CLK_TCK'));
    expect(auxvValue(AT_PAGESZ)).toBe(getconf('PAGESIZE'));
  });

  it('gives null, so the caller falls back, for a missing file, a missing entry or a zero value', () => {
    const dir = mkdtempSync(join(tmpdir(), 'corral-auxv-'));
    dirs.push(dir);
    const path = join(dir, 'auxv');
    const pairs = (entries: [number, number][]): Buffer => {
      const b = Buffer.alloc(16 * (entries.length + 1));
      entries.forEach(([t, v], i) => {
        b.writeBigUInt64LE(BigInt(t), i * 16);
        b.writeBigUInt64LE(BigInt(v), i * 16 + 8);
      });
      return b;
    };
    expect(auxvValue(AT_CLKTCK, join(dir, 'missing'))).toBeNull();
    writeFileSync(path, pairs([[AT_PAGESZ, 16384]]));
    expect(auxvValue(AT_PAGESZ, path)).toBe(16384);
    expect(auxvValue(AT_CLKTCK, path)).toBeNull();
    writeFileSync(path, pairs([[AT_CLKTCK, 0]]));
    expect(auxvValue(AT_CLKTCK, path)).toBeNull();
  });
});
