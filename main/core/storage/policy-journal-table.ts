import type { PolicyJournalQuery } from '../../../shared/contract';
import type { MonitorEvent } from '../../../shared/model';
import { readJournalRow } from './policy-journal-row';
import type { SqliteDatabase } from './sqlite-driver';

/** At most this many entries are kept; the oldest go first. */
export const MAX_JOURNAL_ENTRIES = 5_000;
const SKIPPED_DESCRIBED = 3;

export const JOURNAL_SCHEMA = `
CREATE TABLE IF NOT EXISTS policy_journal (
  type TEXT NOT NULL,
  group_id TEXT NOT NULL,
  policy TEXT NOT NULL,
  at INTEGER NOT NULL,
  body TEXT NOT NULL,
  PRIMARY KEY (type, group_id, policy)
);
CREATE INDEX IF NOT EXISTS policy_journal_by_at ON policy_journal (at);
`;

/**
 * The policy journal beside the incidents, in the same database: one row per (event type, group,
 * policy), so a match is recorded once however often it is seen again, before or after a restart.
 */
export class PolicyJournalTable {
  /** Rows the last read skipped as malformed. */
  skipped: { count: number; problems: string[] } = { count: 0, problems: [] };

  constructor(private readonly db: SqliteDatabase) {}

  /** Adds entries not recorded yet (the first of each type, group and policy wins); returns the new ones. */
  add(events: readonly MonitorEvent[]): MonitorEvent[] {
    const insert = this.db.prepare(
      'INSERT OR IGNORE INTO policy_journal (type, group_id, policy, at, body) VALUES (?, ?, ?, ?, ?)',
    );
    const added: MonitorEvent[] = [];
    for (const e of events) {
      const policy = e.detail?.policy;
      if (typeof policy !== 'string') throw new TypeError(`a ${e.type} event without detail.policy`);
      if (insert.run(e.type, e.groupId, policy, Math.round(e.at), JSON.stringify(e)).changes > 0)
        added.push(e);
    }
    const count = Number(this.db.prepare('SELECT count(*) AS n FROM policy_journal').get()?.n);
    if (count > MAX_JOURNAL_ENTRIES)
      this.db
        .prepare(
          `DELETE FROM policy_journal WHERE rowid IN (SELECT rowid FROM policy_journal ORDER BY at LIMIT ?)`,
        )
        .run(count - MAX_JOURNAL_ENTRIES);
    return added;
  }

  /** Whether this group already has an entry of this type for this policy. */
  has(type: MonitorEvent['type'], groupId: string, policy: string): boolean {
    return (
      this.db
        .prepare('SELECT 1 FROM policy_journal WHERE type = ? AND group_id = ? AND policy = ?')
        .get(type, groupId, policy) !== undefined
    );
  }

  list({ sinceMs = 0, limit = 200 }: PolicyJournalQuery = {}): MonitorEvent[] {
    const rows = this.db
      .prepare('SELECT body FROM policy_journal WHERE at >= ? ORDER BY at DESC, rowid DESC LIMIT ?')
      .all(Math.floor(sinceMs), Math.max(0, Math.floor(limit)));
    const events: MonitorEvent[] = [];
    const skipped = { count: 0, problems: [] as string[] };
    for (const row of rows) {
      const reading = readJournalRow(row.body);
      if ('event' in reading) events.push(reading.event);
      else if (++skipped.count <= SKIPPED_DESCRIBED) skipped.problems.push(reading.problem);
    }
    this.skipped = skipped;
    return events;
  }
}
