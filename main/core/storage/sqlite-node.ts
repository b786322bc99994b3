import type { SqliteDatabase, SqliteStatement, SqlRow, SqlValue } from './sqlite-driver';

// The part of node:sqlite used here (@types/node 20 does not declare the module).
interface StatementSync {
  run(...params: SqlValue[]): { changes: number | bigint };
  get(...params: SqlValue[]): SqlRow | undefined;
  all(...params: SqlValue[]): SqlRow[];
}
interface DatabaseSync {
  exec(sql: string): void;
  prepare(sql: string): StatementSync;
  close(): void;
  /** Node 22.16 and 24 on. */
  readonly isTransaction?: boolean;
}
interface NodeSqlite {
  DatabaseSync: new (location: string) => DatabaseSync;
}

const EXPERIMENTAL = /^SQLite is an experimental feature/;

let loaded: NodeSqlite | null | undefined;

/**
 * Node's `node:sqlite`, or null where the runtime has none (before 22.13 it needs a flag). Loading it
 * prints an ExperimentalWarning on Node 24; that one warning, and no other, is not printed: it would
 * reach a `watch --json` user's stderr on every start, and says nothing about Corral.
 */
export function loadNodeSqlite(): NodeSqlite | null {
  if (loaded !== undefined) return loaded;
  loaded = null;
  const getBuiltin = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  if (typeof getBuiltin !== 'function') return loaded;
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]): void {
    const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: unknown } | undefined)?.type;
    const text = typeof warning === 'string' ? warning : warning.message;
    if (type === 'ExperimentalWarning' && EXPERIMENTAL.test(text)) return;
    (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    const sqlite = getBuiltin.call(process, 'node:sqlite') as Partial<NodeSqlite> | undefined;
    if (typeof sqlite?.DatabaseSync === 'function') loaded = sqlite as NodeSqlite;
  } catch {
    // Not built in, or behind a flag: libsql then.
  } finally {
    process.emitWarning = emitWarning;
  }
  return loaded;
}

class NodeStatement implements SqliteStatement {
  constructor(private readonly statement: StatementSync) {}

  run(...params: SqlValue[]): { changes: number } {
    return { changes: Number(this.statement.run(...params).changes) };
  }

  get(...params: SqlValue[]): SqlRow | undefined {
    return this.statement.get(...params);
  }

  all(...params: SqlValue[]): SqlRow[] {
    return this.statement.all(...params);
  }
}

class NodeDatabase implements SqliteDatabase {
  constructor(private readonly db: DatabaseSync) {}

  exec(sql: string): void {
    this.db.exec(sql);
  }

  prepare(sql: string): SqliteStatement {
    return new NodeStatement(this.db.prepare(sql));
  }

  get inTransaction(): boolean {
    // Unknown before Node 22.16: say yes, so a caller tries the rollback (and ignores its error).
    return this.db.isTransaction ?? true;
  }

  close(): void {
    this.db.close();
  }
}

export function openNodeSqlite(location: string): SqliteDatabase {
  const sqlite = loadNodeSqlite();
  if (!sqlite) throw new Error('node:sqlite is not available in this runtime');
  return new NodeDatabase(new sqlite.DatabaseSync(location));
}
