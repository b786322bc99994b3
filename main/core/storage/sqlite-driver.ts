import { openLibsql } from './sqlite-libsql';
import { loadNodeSqlite, openNodeSqlite } from './sqlite-node';

/** What the incident store needs of a SQLite binding, and nothing more. */
export type SqlValue = string | number | null;
export type SqlRow = Record<string, unknown>;

export interface SqliteStatement {
  run(...params: SqlValue[]): { changes: number };
  get(...params: SqlValue[]): SqlRow | undefined;
  all(...params: SqlValue[]): SqlRow[];
}

export interface SqliteDatabase {
  exec(sql: string): void;
  prepare(sql: string): SqliteStatement;
  /** False only when the binding knows no transaction is open (a rollback is then pointless). */
  readonly inTransaction: boolean;
  close(): void;
}

export type SqliteDriverName = 'node:sqlite' | 'libsql';
export const SQLITE_DRIVERS: readonly SqliteDriverName[] = ['node:sqlite', 'libsql'];

/**
 * Chooses the driver, so that tests (and a user working around a bad runtime) can pick one; unset or
 * unavailable, the runtime's own.
 */
export const SQLITE_DRIVER_ENV = 'CORRAL_SQLITE_DRIVER';

/** Whether this runtime can use the driver: libsql is a dependency, node:sqlite is Node's (22.13+). */
export function sqliteDriverAvailable(name: SqliteDriverName): boolean {
  return name === 'libsql' || loadNodeSqlite() !== null;
}

/**
 * The driver opens use: Node's own `node:sqlite` where the runtime has it (its SQLite is part of the
 * Node binary, where libsql's native library adds about 11 MB to every process that loads it), else
 * libsql (Node 22.12, a runtime built without it). Both write the same file format, WAL and locks.
 */
export function sqliteDriverName(): SqliteDriverName {
  const asked = process.env[SQLITE_DRIVER_ENV];
  if (asked === 'libsql') return 'libsql';
  return loadNodeSqlite() !== null ? 'node:sqlite' : 'libsql';
}

/** Opens a path, `:memory:`, or a `file:` URI with the chosen driver; throws what SQLite said. */
export function openSqlite(location: string): SqliteDatabase {
  return sqliteDriverName() === 'node:sqlite' ? openNodeSqlite(location) : openLibsql(location);
}
