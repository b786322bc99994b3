import { createRequire } from 'node:module';
import type Libsql from 'libsql';
import type { SqliteDatabase, SqliteStatement, SqlRow, SqlValue } from './sqlite-driver';

type LibsqlConstructor = typeof Libsql;

let constructor: LibsqlConstructor | undefined;

// Required on first use, not imported: a process on node:sqlite never maps libsql's native library.
function libsql(): LibsqlConstructor {
  const load = typeof require === 'function' ? require : createRequire(import.meta.url);
  constructor ??= load('libsql') as LibsqlConstructor;
  return constructor;
}

class LibsqlStatement implements SqliteStatement {
  constructor(private readonly statement: Libsql.Statement) {}

  run(...params: SqlValue[]): { changes: number } {
    return { changes: Number(this.statement.run(...params).changes) };
  }

  get(...params: SqlValue[]): SqlRow | undefined {
    return this.statement.get(...params) as SqlRow | undefined;
  }

  all(...params: SqlValue[]): SqlRow[] {
    return this.statement.all(...params) as SqlRow[];
  }
}

class LibsqlDatabase implements SqliteDatabase {
  constructor(private readonly db: Libsql.Database) {}

  exec(sql: string): void {
    this.db.exec(sql);
  }

  prepare(sql: string): SqliteStatement {
    return new LibsqlStatement(this.db.prepare(sql));
  }

  get inTransaction(): boolean {
    return this.db.inTransaction;
  }

  close(): void {
    this.db.close();
  }
}

export function openLibsql(location: string): SqliteDatabase {
  const Database = libsql();
  return new LibsqlDatabase(new Database(location));
}
