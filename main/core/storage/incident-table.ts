import Database from 'libsql';
import type { Incident, IncidentKind } from '../../../shared/model';
import { DamagedDatabaseError } from './sqlite-errors';

export interface IncidentQuery {
  /** Most recent first; default 100. */
  limit?: number;
  kind?: IncidentKind;
  agent?: string;
}

// A group with a thousand MCP servers must not make one row unbounded.
export const MAX_PROCESSES_PER_INCIDENT = 256;
export const MAX_COMMAND_CHARS = 4096;
const DEFAULT_LIST_LIMIT = 100;
const SCHEMA_VERSION = 1;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS incidents (
  id TEXT PRIMARY KEY NOT NULL,
  kind TEXT NOT NULL,
  agent TEXT,
  is_open INTEGER NOT NULL,
  opened_at INTEGER NOT NULL,
  ended_at INTEGER NOT NULL,
  body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS incidents_by_opened ON incidents (opened_at);
CREATE INDEX IF NOT EXISTS incidents_closed_by_age ON incidents (is_open, ended_at);
`;

function bounded(incident: Incident): Incident {
  const processes = incident.processes.slice(0, MAX_PROCESSES_PER_INCIDENT).map((p) => ({
    ...p,
    command:
      p.command.length > MAX_COMMAND_CHARS ? `${p.command.slice(0, MAX_COMMAND_CHARS - 1)}…` : p.command,
  }));
  return { ...incident, processes };
}

function parseBody(body: unknown): Incident | null {
  if (typeof body !== 'string') return null;
  try {
    const value = JSON.parse(body) as Incident;
    return typeof value === 'object' && value !== null && typeof value.id === 'string' ? value : null;
  } catch {
    return null;
  }
}

/** The incidents table in one open libsql database, on disk or in memory. Every write is one transaction. */
export class IncidentTable {
  private constructor(
    private readonly db: Database.Database,
    /** Path of the database file; null for an in-memory table. */
    readonly path: string | null,
  ) {}

  /** Opens (creating if needed) a file database in WAL mode and checks its integrity; throws on any problem. */
  static openFile(path: string): IncidentTable {
    const db = new Database(path);
    try {
      db.exec('PRAGMA busy_timeout = 1000');
      db.prepare('PRAGMA journal_mode = WAL').raw().get();
      // FULL: a commit that returned is on disk, so "saved" survives a power cut, not only a SIGKILL.
      db.exec('PRAGMA synchronous = FULL');
      // Checkpoint often and cut the WAL back after each checkpoint, so the files stay small.
      db.exec('PRAGMA wal_autocheckpoint = 256');
      db.exec(`PRAGMA journal_size_limit = ${1024 * 1024}`);
      const check = (db.prepare('PRAGMA quick_check(2)').raw().all() as unknown[][]).map((row) =>
        String(row[0]),
      );
      if (check[0] !== 'ok') {
        const first = check.find((line) => !line.startsWith('***')) ?? check[0];
        throw new DamagedDatabaseError(`integrity check failed: ${first}`);
      }
      const table = new IncidentTable(db, path);
      table.createSchema();
      return table;
    } catch (err) {
      safeClose(db);
      throw err;
    }
  }

  static inMemory(): IncidentTable {
    const table = new IncidentTable(new Database(':memory:'), null);
    table.createSchema();
    return table;
  }

  /**
   * Reads a database without writing anything next to it (no WAL, no -shm): for a directory Corral
   * cannot write. Changes still only in an uncheckpointed WAL are not seen.
   */
  static readOnlySnapshot(path: string): Incident[] {
    const uri = `file:${path.replace(/[%?#]/g, (c) => `%${c.charCodeAt(0).toString(16)}`)}?immutable=1`;
    const db = new Database(uri);
    try {
      return new IncidentTable(db, path).all();
    } finally {
      safeClose(db);
    }
  }

  private createSchema(): void {
    this.db.exec(SCHEMA);
    this.db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
  }

  /** Inserts or replaces the incidents, then drops the oldest closed ones beyond `maxIncidents`. */
  write(incidents: readonly Incident[], maxIncidents: number): void {
    this.transaction(() => {
      const upsert = this.db.prepare(
        `INSERT INTO incidents (id, kind, agent, is_open, opened_at, ended_at, body)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, agent = excluded.agent,
           is_open = excluded.is_open, opened_at = excluded.opened_at, ended_at = excluded.ended_at,
           body = excluded.body`,
      );
      for (const incident of incidents) {
        upsert.run(
          incident.id,
          incident.kind,
          incident.agent,
          incident.end === 'open' ? 1 : 0,
          incident.openedAt,
          incident.closedAt ?? incident.openedAt,
          JSON.stringify(bounded(incident)),
        );
      }
      const count = Number((this.db.prepare('SELECT count(*) FROM incidents').raw().get() as unknown[])[0]);
      if (count > maxIncidents) {
        this.db
          .prepare(
            `DELETE FROM incidents WHERE id IN (
               SELECT id FROM incidents WHERE is_open = 0 ORDER BY ended_at, opened_at LIMIT ?)`,
          )
          .run(count - maxIncidents);
      }
    });
  }

  list({ limit = DEFAULT_LIST_LIMIT, kind, agent }: IncidentQuery = {}): Incident[] {
    const where: string[] = [];
    const params: unknown[] = [];
    if (kind !== undefined) {
      where.push('kind = ?');
      params.push(kind);
    }
    if (agent !== undefined) {
      where.push('agent = ?');
      params.push(agent);
    }
    const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
    params.push(Math.max(0, Math.floor(limit)));
    return this.bodies(
      `SELECT body FROM incidents ${clause} ORDER BY opened_at DESC, id DESC LIMIT ?`,
      params,
    );
  }

  openIncidents(): Incident[] {
    return this.bodies('SELECT body FROM incidents WHERE is_open = 1 ORDER BY opened_at', []);
  }

  all(): Incident[] {
    return this.bodies('SELECT body FROM incidents ORDER BY opened_at', []);
  }

  close(): void {
    // libsql 0.5 keeps the file open after close() until its statements are garbage-collected
    // (tursodatabase/libsql-js#228): leave everything in the main file, so the lingering handle is inert.
    if (this.path !== null) {
      try {
        this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      } catch {
        // A reader elsewhere may hold the WAL; SQLite checkpoints later.
      }
    }
    safeClose(this.db);
  }

  private bodies(sql: string, params: unknown[]): Incident[] {
    const rows = this.db
      .prepare(sql)
      .raw()
      .all(...params) as unknown[][];
    return rows.map((row) => parseBody(row[0])).filter((i): i is Incident => i !== null);
  }

  // libsql's own transaction() masks the real error when SQLite already rolled back (disk full).
  private transaction(work: () => void): void {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      work();
      this.db.exec('COMMIT');
    } catch (err) {
      if (this.db.inTransaction) {
        try {
          this.db.exec('ROLLBACK');
        } catch {
          // The original error is the one worth reporting.
        }
      }
      throw err;
    }
  }
}

function safeClose(db: Database.Database): void {
  try {
    db.close();
  } catch {
    // Closing is best effort; the handle is dropped either way.
  }
}
