import { existsSync } from 'node:fs';
import type { IncidentListRequest } from '../../../shared/contract';
import type { Incident, MonitorEvent } from '../../../shared/model';
import { FILL_FLAGS, FILTER_SCHEMA, incidentWhere } from './incident-filter-sql';
import { readIncidentRow } from './incident-row';
import { mergeLegacyRows } from './merge-legacy-rows';
import { PolicyJournalTable, JOURNAL_SCHEMA } from './policy-journal-table';
import { openSqlite, type SqliteDatabase, type SqlValue } from './sqlite-driver';
import { DamagedDatabaseError } from './sqlite-errors';

export interface IncidentQuery extends IncidentListRequest {
  /** Most recent first; default 100. */
  limit?: number;
  groupId?: string;
}

// A group with a thousand MCP servers must not make one row unbounded.
export const MAX_PROCESSES_PER_INCIDENT = 256;
export const MAX_COMMAND_CHARS = 4096;
const DEFAULT_LIST_LIMIT = 100;
/**
 * 4: incident_flags and the indexes the history's filters use. 3: the policy journal beside the incidents. 2: one row per leaked group with phases (1 was one row
 * per group and flag).
 */
const SCHEMA_VERSION = 4;
/** At most this many skipped rows are described; the count says how many there were. */
const SKIPPED_DESCRIBED = 3;

const SCHEMA_TABLES = `
CREATE TABLE IF NOT EXISTS incidents (
  id TEXT PRIMARY KEY NOT NULL,
  kind TEXT NOT NULL,
  agent TEXT,
  is_open INTEGER NOT NULL,
  opened_at INTEGER NOT NULL,
  ended_at INTEGER NOT NULL,
  body TEXT NOT NULL
);
${JOURNAL_SCHEMA}`;
const SCHEMA_INDEXES = `
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

/**
 * The incidents table in one open SQLite database (node:sqlite or libsql, sqlite-driver.ts), on disk or
 * in memory. Every write is one transaction.
 */
export class IncidentTable {
  /** Rows the last read skipped as malformed: how many, and what was wrong with the first few. */
  skipped: { count: number; problems: string[] } = { count: 0, problems: [] };
  /** The policies' journal, in the same database. */
  readonly journal: PolicyJournalTable;

  private constructor(
    private readonly db: SqliteDatabase,
    /** Path of the database file; null for an in-memory table. */
    readonly path: string | null,
  ) {
    this.journal = new PolicyJournalTable(db);
  }

  /**
   * Opens (creating if needed) a file database in WAL mode and checks its integrity; throws on any
   * problem. A reader (another Corral holds the writer's lock) changes nothing in the file.
   */
  static openFile(path: string, { reader = false }: { reader?: boolean } = {}): IncidentTable {
    if (existsSync(path)) checkIntegrity(path);
    const db = openSqlite(path);
    try {
      db.exec('PRAGMA busy_timeout = 1000');
      db.prepare('PRAGMA journal_mode = WAL').get();
      // FULL: a commit that returned is on disk, so "saved" survives a power cut, not only a SIGKILL.
      db.exec('PRAGMA synchronous = FULL');
      // Checkpoint often and cut the WAL back after each checkpoint, so the files stay small.
      db.exec('PRAGMA wal_autocheckpoint = 256');
      db.exec(`PRAGMA journal_size_limit = ${1024 * 1024}`);
      const table = new IncidentTable(db, path);
      if (reader) table.db.exec(SCHEMA_TABLES);
      else table.createSchema();
      return table;
    } catch (err) {
      safeClose(db);
      throw err;
    }
  }

  static inMemory(): IncidentTable {
    const table = new IncidentTable(openSqlite(':memory:'), null);
    table.createSchema();
    return table;
  }

  /**
   * Reads a database without writing anything next to it (no WAL, no -shm): for a directory Corral
   * cannot write. Changes still only in an uncheckpointed WAL are not seen.
   */
  static readOnlySnapshot(path: string): Incident[] {
    const db = openSqlite(fileUri(path, 'immutable=1'));
    try {
      return new IncidentTable(db, path).all();
    } finally {
      safeClose(db);
    }
  }

  private createSchema(): void {
    this.db.exec(SCHEMA_TABLES);
    this.db.exec(SCHEMA_INDEXES);
    this.db.exec(FILTER_SCHEMA);
    const version = Number(this.db.prepare('PRAGMA user_version').get()?.user_version);
    if (version >= SCHEMA_VERSION) return;
    this.transaction(() => {
      if (version < 2) this.mergeLegacyRows();
      // Version 3 only added the journal table, which SCHEMA_TABLES created above; 4 the filters' schema.
      if (version < 4) this.db.exec(FILL_FLAGS);
      this.db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    });
  }

  /** Schema 1 kept one row per (group, flag); a leak becomes one row (see merge-legacy-rows). */
  private mergeLegacyRows(): void {
    const { merged, folded } = mergeLegacyRows(this.all());
    const drop = this.db.prepare('DELETE FROM incidents WHERE id = ?');
    for (const id of folded) drop.run(id);
    this.upsertRows(merged);
  }

  /** Records policy journal entries in one transaction; returns those not recorded before. */
  addJournal(events: readonly MonitorEvent[]): MonitorEvent[] {
    let added: MonitorEvent[] = [];
    this.transaction(() => {
      added = this.journal.add(events);
    });
    return added;
  }

  /** Inserts or replaces the incidents, then drops the oldest closed ones beyond `maxIncidents`. */
  write(incidents: readonly Incident[], maxIncidents: number): void {
    this.transaction(() => {
      this.upsertRows(incidents);
      const count = Number(this.db.prepare('SELECT count(*) AS n FROM incidents').get()?.n);
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

  private upsertRows(incidents: readonly Incident[]): void {
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
  }

  list({ limit = DEFAULT_LIST_LIMIT, offset = 0, groupId, ...filter }: IncidentQuery = {}): Incident[] {
    const { clause, params } = incidentWhere(filter, { flagTable: this.hasFlagTable() });
    const byGroup =
      groupId === undefined ? '' : `${clause ? ' AND' : 'WHERE'} json_extract(body, '$.groupId') = ?`;
    if (groupId !== undefined) params.push(groupId);
    params.push(Math.max(0, Math.floor(limit)), Math.max(0, Math.floor(offset)));
    return this.bodies(
      `SELECT body FROM incidents ${clause}${byGroup} ORDER BY opened_at DESC, id DESC LIMIT ? OFFSET ?`,
      params,
    );
  }

  /** A reader of a file an older Corral writes finds no incident_flags (only a writer migrates). */
  private hasFlagTable(): boolean {
    return (
      this.db
        .prepare("SELECT 1 AS yes FROM sqlite_master WHERE type = 'table' AND name = 'incident_flags'")
        .get() !== undefined
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
    // Either driver: a file another version (or the other driver) opens next has no WAL to replay.
    if (this.path !== null) {
      try {
        this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      } catch {
        // A reader elsewhere may hold the WAL; SQLite checkpoints later.
      }
    }
    safeClose(this.db);
  }

  private bodies(sql: string, params: SqlValue[]): Incident[] {
    const rows = this.db.prepare(sql).all(...params);
    const incidents: Incident[] = [];
    const skipped = { count: 0, problems: [] as string[] };
    for (const row of rows) {
      const reading = readIncidentRow(row.body);
      if ('incident' in reading) incidents.push(reading.incident);
      else if (++skipped.count <= SKIPPED_DESCRIBED) skipped.problems.push(reading.problem);
    }
    this.skipped = skipped;
    return incidents;
  }

  // BEGIN/COMMIT by hand: node:sqlite has no transaction(), and libsql's masks the real error when
  // SQLite already rolled back (disk full).
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

function fileUri(path: string, query: string): string {
  return `file:${path.replace(/[%?#]/g, (c) => `%${c.charCodeAt(0).toString(16)}`)}?${query}`;
}

/**
 * Throws DamagedDatabaseError (or what SQLite said) when the file cannot be trusted. Read-only: closing a
 * read-write connection to a damaged file would checkpoint and delete its WAL, which is moved aside with
 * it instead (libsql only seemed not to, as it closes late: tursodatabase/libsql-js#228).
 */
function checkIntegrity(path: string): void {
  const db = openSqlite(fileUri(path, 'mode=ro'));
  try {
    db.exec('PRAGMA busy_timeout = 1000');
    const check = db
      .prepare('PRAGMA quick_check(2)')
      .all()
      .map((row) => String(row.quick_check));
    if (check[0] !== 'ok') {
      const first = check.find((line) => !line.startsWith('***')) ?? check[0];
      throw new DamagedDatabaseError(`integrity check failed: ${first}`);
    }
  } finally {
    safeClose(db);
  }
}

function safeClose(db: SqliteDatabase): void {
  try {
    db.close();
  } catch {
    // Closing is best effort; the handle is dropped either way.
  }
}
