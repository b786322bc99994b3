import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { INCIDENTS_FILE, IncidentStore } from '../../main/core/storage/incident-store';
import type { MonitorEvent } from '../../shared/model';
import { removeDir } from '../support/spawned-groups';
import { makeIncident } from './make-incident';
import { forEachSqliteDriver } from './sqlite-drivers';
import { openSqlite } from '../../main/core/storage/sqlite-driver';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'corral-journal-'));
  dirs.push(dir);
  return dir;
}

function matched(groupId: string, policy: string, at: number, executed = false): MonitorEvent {
  return {
    type: 'policy-matched',
    at,
    groupId,
    pid: 90,
    pgid: 90,
    agent: { name: 'claude-code', pid: 10 },
    command: 'sleep 600',
    detail: { policy, action: 'stop', executed },
  };
}

forEachSqliteDriver('policy-journal.test.ts', () => {
  describe('the policy journal', () => {
    it('survives a restart, records each (group, policy) once, and lists newest first since a time', () => {
      const dir = dataDir();
      const first = IncidentStore.open(dir);
      expect(first.addJournal([matched('90:90:1', 'loops', 1_000)])).toHaveLength(1);
      expect(first.addJournal([matched('90:90:1', 'loops', 2_000)])).toEqual([]);
      expect(first.addJournal([matched('90:90:1', 'servers', 3_000)])).toHaveLength(1);
      first.close();

      const second = IncidentStore.open(dir);
      expect(second.journalHas('90:90:1', 'loops')).toBe(true);
      expect(second.journalHas('91:91:1', 'loops')).toBe(false);
      // After the restart the same match is still not recorded again.
      expect(second.addJournal([matched('90:90:1', 'loops', 4_000)])).toEqual([]);
      expect(second.journal().map((e) => [e.detail?.policy, e.at])).toEqual([
        ['servers', 3_000],
        ['loops', 1_000],
      ]);
      expect(second.journal({ sinceMs: 2_000 }).map((e) => e.detail?.policy)).toEqual(['servers']);
      expect(second.journal()[0]).toEqual(matched('90:90:1', 'servers', 3_000));
      second.close();
    });

    it('is added to a database from before the journal (schema 2), keeping its incidents', () => {
      const dir = dataDir();
      const old = IncidentStore.open(dir);
      old.upsert([makeIncident('kept', { groupId: '90:90:1' })]);
      old.close();
      const db = openSqlite(join(dir, INCIDENTS_FILE));
      db.exec('DROP TABLE policy_journal');
      db.exec('PRAGMA user_version = 2');
      db.close();

      const store = IncidentStore.open(dir);
      expect(store.list().map((i) => i.id)).toEqual(['kept']);
      expect(store.addJournal([matched('90:90:1', 'loops', 1_000)])).toHaveLength(1);
      store.close();
      const check = openSqlite(join(dir, INCIDENTS_FILE));
      expect(check.prepare('PRAGMA user_version').get()?.user_version).toBe(4);
      check.close();
    });

    it('skips malformed rows and reports them, listing the good ones', () => {
      const dir = dataDir();
      const store = IncidentStore.open(dir);
      store.addJournal([matched('90:90:1', 'loops', 1_000)]);
      store.close();
      const db = openSqlite(join(dir, INCIDENTS_FILE));
      const insert = db.prepare(
        'INSERT INTO policy_journal (type, group_id, policy, at, body) VALUES (?, ?, ?, ?, ?)',
      );
      insert.run('policy-matched', '91:91:1', 'loops', 2_000, '{not json');
      insert.run(
        'policy-matched',
        '92:92:1',
        'loops',
        3_000,
        JSON.stringify({
          ...matched('92:92:1', 'loops', 3_000),
          detail: { policy: 'loops', action: 'stop' },
        }),
      );
      db.close();

      const reopened = IncidentStore.open(dir);
      expect(reopened.journal().map((e) => e.groupId)).toEqual(['90:90:1']);
      expect(reopened.problem).toContain('2 policy journal rows');
      expect(reopened.problem).toContain('the journal row is not JSON');
      expect(reopened.problem).toContain(
        'journal entry 92:92:1: detail.action or detail.executed is malformed',
      );
      reopened.close();
    });
  });

  describe('policy notes on incidents', () => {
    it('are stored with the incident and read back; a malformed list makes the row skipped and reported', () => {
      const dir = dataDir();
      const store = IncidentStore.open(dir);
      const note = { policy: 'loops', action: 'stop' as const, executed: false, at: 5 };
      store.upsert([
        makeIncident('noted', { groupId: '90:90:1', policyNotes: [note] }),
        makeIncident('bad', { groupId: '91:91:1' }),
      ]);
      store.close();
      const db = openSqlite(join(dir, INCIDENTS_FILE));
      const body = JSON.stringify({
        ...makeIncident('bad', { groupId: '91:91:1' }),
        policyNotes: [{ policy: 7 }],
      });
      db.prepare('UPDATE incidents SET body = ? WHERE id = ?').run(body, 'bad');
      db.close();

      const reopened = IncidentStore.open(dir);
      expect(reopened.list().map((i) => [i.id, i.policyNotes])).toEqual([['noted', [note]]]);
      expect(reopened.problem).toContain('incident bad: policyNotes is not a list');
      reopened.close();
    });
  });
});
