// The history's filters over 1,000 incidents in the real store, on each SQLite driver: every filter
// answers what the incidents say, in SQL on an index (the query plan), pages join up, and a database
// from before the filters (schema 3) is filtered by flag once migrated.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { IncidentFilter } from '../../shared/contract';
import { INCIDENT_FLAGS } from '../../shared/incident-filter';
import { INCIDENTS_FILE, IncidentStore } from '../../main/core/storage/incident-store';
import { incidentWhere } from '../../main/core/storage/incident-filter-sql';
import { openSqlite } from '../../main/core/storage/sqlite-driver';
import { expectedIds, NEEDLE_PROJECT, NEEDLE_SESSION, writeHistory } from '../support/history-fixture';
import { tempDirsRemovedAfterEach } from '../support/temp-dirs';
import { forEachSqliteDriver } from './sqlite-drivers';

const tempDir = tempDirsRemovedAfterEach();
const NOW = Date.UTC(2026, 11, 3, 12);

function listed(dir: string, filter: IncidentFilter & { limit?: number; offset?: number }): string[] {
  const store = IncidentStore.open(dir, { role: 'reader' });
  try {
    return store.list({ limit: 10_000, ...filter }).map((i) => i.id);
  } finally {
    store.close();
  }
}

const FILTERS: [string, IncidentFilter][] = [
  ['agent', { agent: 'gemini' }],
  ['session', { sessionId: NEEDLE_SESSION }],
  ['session by its first characters', { sessionId: 'other-sess' }],
  ['project', { project: NEEDLE_PROJECT }],
  ...INCIDENT_FLAGS.map((flag): [string, IncidentFilter] => [`flag ${flag}`, { flag }]),
  ['since 2h', { sinceMs: NOW - 2 * 3_600_000 }],
  ['until', { untilMs: NOW - 9_000_000 }],
  ['session and flag', { sessionId: NEEDLE_SESSION, flag: 'runaway' }],
  ['agent, project and time', { agent: 'codex', project: '/work/project-2', sinceMs: NOW - 5_000_000 }],
];

forEachSqliteDriver('history-filters.test.ts', () => {
  describe('filtered history', () => {
    it('answers each filter over 1,000 incidents as the incidents say, newest first', () => {
      const dir = tempDir('corral-history-');
      const incidents = writeHistory(dir, NOW);
      // The story: the session's four incidents are not among the newest 100.
      expect(listed(dir, { limit: 100 })).not.toContain('inc-0900');
      for (const [name, filter] of FILTERS) {
        const expected = expectedIds(incidents, filter);
        expect(expected.length, name).toBeGreaterThan(0);
        expect(expected.length, name).toBeLessThan(incidents.length);
        expect(listed(dir, filter), name).toEqual(expected);
      }
      expect(listed(dir, { sessionId: NEEDLE_SESSION })).toEqual([
        'inc-0900',
        'inc-0901',
        'inc-0902',
        'inc-0903',
      ]);
    });

    it('pages with limit and offset, the pages joining into the whole list', () => {
      const dir = tempDir('corral-history-');
      const incidents = writeHistory(dir, NOW);
      const whole = expectedIds(incidents, { flag: 'orphan' });
      const pages: string[] = [];
      for (let offset = 0; offset < whole.length; offset += 50)
        pages.push(...listed(dir, { flag: 'orphan', limit: 50, offset }));
      expect(pages).toEqual(whole);
      expect(listed(dir, { flag: 'orphan', limit: 50, offset: whole.length })).toEqual([]);
    });

    it('filters in SQL on an index', () => {
      const dir = tempDir('corral-history-');
      writeHistory(dir, NOW);
      const db = openSqlite(join(dir, INCIDENTS_FILE));
      try {
        const plan = (filter: IncidentFilter): string => {
          const { clause, params } = incidentWhere(filter, { flagTable: true });
          return db
            .prepare(
              `EXPLAIN QUERY PLAN SELECT body FROM incidents ${clause} ORDER BY opened_at DESC LIMIT 100`,
            )
            .all(...params)
            .map((row) => String(row.detail))
            .join('\n');
        };
        expect(plan({ agent: 'codex' })).toMatch(/USING INDEX incidents_by_agent/);
        expect(plan({ sessionId: NEEDLE_SESSION })).toMatch(/USING INDEX incidents_by_session/);
        expect(plan({ project: NEEDLE_PROJECT })).toMatch(/USING INDEX incidents_by_project/);
        expect(plan({ flag: 'memory-hog' })).toMatch(/incident_flags USING (PRIMARY KEY|COVERING INDEX)/);
      } finally {
        db.close();
      }
    });

    it('fills the flags of a database from before the filters (schema 3) when it is next opened', () => {
      const dir = tempDir('corral-history-');
      const incidents = writeHistory(dir, NOW);
      const db = openSqlite(join(dir, INCIDENTS_FILE));
      db.exec('DROP TABLE incident_flags');
      db.exec('PRAGMA user_version = 3');
      db.close();
      // A reader of a file an older Corral still writes: no flags table, still the right answer.
      expect(listed(dir, { flag: 'held-pipe' })).toEqual(expectedIds(incidents, { flag: 'held-pipe' }));
      IncidentStore.open(dir).close();
      const check = openSqlite(join(dir, INCIDENTS_FILE));
      const rows = Number(check.prepare('SELECT count(*) AS n FROM incident_flags').get()?.n);
      check.close();
      expect(rows).toBe(incidents.reduce((n, i) => n + i.flags.length, 0));
      expect(listed(dir, { flag: 'held-pipe' })).toEqual(expectedIds(incidents, { flag: 'held-pipe' }));
    });
  });
});
