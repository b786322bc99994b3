// The history's filters (shared/contract.ts IncidentFilter) as SQL over the incidents table, each on an
// index: agent on its column, session and project on expression indexes over the body, a flag on
// incident_flags (one row per incident and flag, kept by triggers), time on opened_at.
import type { IncidentFilter } from '../../../shared/contract';
import type { SqlValue } from './sqlite-driver';

/** A body no reader can parse has no session, project or flags (it is reported when read, not here). */
const fromBody = (path: string): string =>
  `(CASE WHEN json_valid(body) THEN json_extract(body, '${path}') END)`;
const SESSION_ID = fromBody('$.session.id');
const PROJECT = fromBody('$.session.project');

/** A row's flags as a JSON array: its `flags`, or its one kind for rows from before flags were kept. */
const flagsOf = (row: string): string =>
  `(CASE WHEN NOT json_valid(${row}.body) THEN '[]'
     WHEN json_type(${row}.body, '$.flags') = 'array' THEN json_extract(${row}.body, '$.flags')
     ELSE json_array(${row}.kind) END)`;

export const FILTER_SCHEMA = `
CREATE INDEX IF NOT EXISTS incidents_by_agent ON incidents (agent, opened_at);
CREATE INDEX IF NOT EXISTS incidents_by_session ON incidents (${SESSION_ID}, opened_at);
CREATE INDEX IF NOT EXISTS incidents_by_project ON incidents (${PROJECT}, opened_at);
CREATE TABLE IF NOT EXISTS incident_flags (
  flag TEXT NOT NULL,
  incident_id TEXT NOT NULL,
  PRIMARY KEY (flag, incident_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS incident_flags_by_incident ON incident_flags (incident_id);
CREATE TRIGGER IF NOT EXISTS incident_flags_added AFTER INSERT ON incidents BEGIN
  INSERT OR IGNORE INTO incident_flags (flag, incident_id) SELECT value, new.id FROM json_each(${flagsOf('new')});
END;
CREATE TRIGGER IF NOT EXISTS incident_flags_changed AFTER UPDATE OF body, kind ON incidents BEGIN
  DELETE FROM incident_flags WHERE incident_id = old.id;
  INSERT OR IGNORE INTO incident_flags (flag, incident_id) SELECT value, new.id FROM json_each(${flagsOf('new')});
END;
CREATE TRIGGER IF NOT EXISTS incident_flags_dropped AFTER DELETE ON incidents BEGIN
  DELETE FROM incident_flags WHERE incident_id = old.id;
END;
`;

/** Fills incident_flags from rows stored before it existed (schema 3 and older). */
export const FILL_FLAGS = `
DELETE FROM incident_flags;
INSERT OR IGNORE INTO incident_flags (flag, incident_id)
  SELECT value, incidents.id FROM incidents, json_each(${flagsOf('incidents')});
`;

/**
 * The WHERE clause (empty when nothing narrows) and its parameters. `flagTable` false: a database an
 * older Corral writes has no incident_flags yet, so a reader looks in each body instead.
 */
export function incidentWhere(
  filter: IncidentFilter,
  { flagTable }: { flagTable: boolean },
): { clause: string; params: SqlValue[] } {
  const where: string[] = [];
  const params: SqlValue[] = [];
  const add = (sql: string, value: SqlValue | undefined): void => {
    if (value === undefined) return;
    where.push(sql);
    params.push(value);
  };
  add('agent = ?', filter.agent);
  // An id or its first characters (as `ps` shows it): a range on the index, the prefix up to the prefix
  // followed by the highest character.
  if (filter.sessionId !== undefined) {
    where.push(`${SESSION_ID} >= ? AND ${SESSION_ID} < ?`);
    params.push(filter.sessionId, `${filter.sessionId}\u{10FFFF}`);
  }
  add(`${PROJECT} = ?`, filter.project);
  add(
    flagTable
      ? 'id IN (SELECT incident_id FROM incident_flags WHERE flag = ?)'
      : `EXISTS (SELECT 1 FROM json_each(${flagsOf('incidents')}) WHERE value = ?)`,
    filter.flag,
  );
  add('(is_open = 1 OR ended_at >= ?)', filter.sinceMs);
  add('opened_at <= ?', filter.untilMs);
  return { clause: where.length > 0 ? `WHERE ${where.join(' AND ')}` : '', params };
}
