import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SQLITE_DRIVER_ENV,
  SQLITE_DRIVERS,
  sqliteDriverAvailable,
  sqliteDriverName,
  type SqliteDriverName,
} from '../../main/core/storage/sqlite-driver';

/** Each driver, with why it is skipped on this runtime (null: it runs). */
export const SQLITE_DRIVER_CASES = SQLITE_DRIVERS.map((name) => ({
  name,
  skip: sqliteDriverAvailable(name) ? null : `Node ${process.versions.node} has no node:sqlite`,
}));

/**
 * Runs `suite` once per SQLite driver this runtime has (node:sqlite, libsql), each in its own describe,
 * with CORRAL_SQLITE_DRIVER set for the store opened here and for the processes a test starts
 * (cleanEnv and runCli pass it on). A driver the runtime lacks is skipped, and said so.
 */
export function forEachSqliteDriver(file: string, suite: (driver: SqliteDriverName) => void): void {
  for (const { name, skip } of SQLITE_DRIVER_CASES) {
    if (skip) console.log(`${file}: skipped with ${name}: ${skip}`);
    describe.skipIf(skip !== null)(`with ${name}`, () => {
      let before: string | undefined;
      beforeAll(() => {
        before = process.env[SQLITE_DRIVER_ENV];
        process.env[SQLITE_DRIVER_ENV] = name;
      });
      afterAll(() => {
        if (before === undefined) delete process.env[SQLITE_DRIVER_ENV];
        else process.env[SQLITE_DRIVER_ENV] = before;
      });
      it(`stores with ${name}`, () => expect(sqliteDriverName()).toBe(name));
      suite(name);
    });
  }
}
