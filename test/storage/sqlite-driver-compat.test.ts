// One data directory, two SQLite drivers: a Corral on node:sqlite (Node 22.13+) and one on libsql (Node
// 22.12, an Electron without node:sqlite) read each other's files, share the writer's lock and the WAL,
// and take each other's place. Each store is its own process, as two Corrals are.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { SqliteDriverName } from '../../main/core/storage/sqlite-driver';
import { removeDir } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';
import { nodeWithTsx, runFixture, startFixture } from './run-fixture';
import { SQLITE_DRIVER_CASES } from './sqlite-drivers';
import { describeUnless } from '../support/skip';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'corral-drivers-'));
  dirs.push(dir);
  return dir;
}

/** A fixture run with the given driver. */
const withDriver = (driver: SqliteDriverName, fixture: string, ...args: string[]): string[] => [
  'env',
  `CORRAL_SQLITE_DRIVER=${driver}`,
  ...nodeWithTsx(fixture, ...args),
];

interface OnceReport {
  driver: SqliteDriverName;
  durable: boolean;
  problem: string | null;
  ids: string[];
}

interface HoldReport {
  pid: number;
  driver: SqliteDriverName;
  readOnly: string | null;
  problem: string | null;
}

/** Whether the process has libsql's native library mapped. */
function mapsLibsql(pid: number): boolean {
  return readFileSync(`/proc/${pid}/maps`, 'utf8').includes('libsql');
}

const nodeSqlite = SQLITE_DRIVER_CASES.find((c) => c.name === 'node:sqlite')!;

describeUnless(nodeSqlite.skip)('node:sqlite and libsql on one data directory', () => {
  it.each([
    ['node:sqlite', 'libsql'],
    ['libsql', 'node:sqlite'],
  ] as const)('a history written with %s is read and extended with %s, and back', async (first, second) => {
    const dir = dataDir();
    const a = await runFixture<OnceReport>(withDriver(first, 'store-once.ts', dir, 'one'));
    expect(a).toMatchObject({ driver: first, durable: true, problem: null, ids: ['one'] });
    const b = await runFixture<OnceReport>(withDriver(second, 'store-once.ts', dir, 'two'));
    expect(b).toMatchObject({ driver: second, durable: true, problem: null });
    expect(b.ids.sort()).toEqual(['one', 'two']);
    const c = await runFixture<OnceReport>(withDriver(first, 'store-once.ts', dir, 'three'));
    expect(c).toMatchObject({ driver: first, durable: true, problem: null });
    expect(c.ids.sort()).toEqual(['one', 'three', 'two']);
  });

  it.each([
    ['node:sqlite', 'libsql'],
    ['libsql', 'node:sqlite'],
  ] as const)(
    'a writer on %s and a reader on %s: one lock, the WAL shared, the reader takes a SIGKILLed writer’s place',
    async (writerDriver, readerDriver) => {
      const dir = dataDir();
      const writer = startFixture(withDriver(writerDriver, 'hold-store.ts', dir, 'from-writer'));
      const writerReport = JSON.parse(await waitFor('the writer open', () => writer.lines[0])) as HoldReport;
      expect(writerReport).toMatchObject({ driver: writerDriver, readOnly: null, problem: null });
      // The store's driver is the only SQLite the process loads.
      expect(mapsLibsql(writer.pid)).toBe(writerDriver === 'libsql');

      // The writer still holds the file: what it saved is in its WAL, which the other driver reads.
      const once = await runFixture<OnceReport>(withDriver(readerDriver, 'store-once.ts', dir, 'ignored'));
      expect(once).toMatchObject({ driver: readerDriver, ids: ['from-writer'] });
      expect(once.problem).toContain(`another Corral (pid ${writer.pid}) is recording incidents in ${dir}`);

      const reader = startFixture(withDriver(readerDriver, 'hold-store.ts', dir, 'from-reader'));
      const readerReport = JSON.parse(await waitFor('the reader open', () => reader.lines[0])) as HoldReport;
      expect(readerReport.driver).toBe(readerDriver);
      expect(readerReport.readOnly).toBe(
        `another Corral (pid ${writer.pid}) is recording incidents in ${dir}; this one only reads them`,
      );

      process.kill(writer.pid, 'SIGKILL');
      await writer.exit;
      const takeover = JSON.parse(await waitFor('the reader taking over', () => reader.lines[1])) as {
        readOnly: string | null;
        durable: boolean;
      };
      expect(takeover).toMatchObject({ readOnly: null, durable: true });
      process.kill(reader.pid, 'SIGKILL');
      await reader.exit;

      // Both killed with their WAL in place: either driver recovers it, with everything saved.
      for (const driver of [writerDriver, readerDriver]) {
        const after = await runFixture<OnceReport>(withDriver(driver, 'store-once.ts', dir, `by-${driver}`));
        expect(after).toMatchObject({ driver, durable: true, problem: null });
        expect(after.ids).toEqual(expect.arrayContaining(['from-writer', 'from-reader-after-takeover']));
      }
    },
  );
});
