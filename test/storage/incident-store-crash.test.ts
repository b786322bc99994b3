import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { INCIDENTS_FILE, IncidentStore } from '../../main/core/storage/incident-store';
import { removeDir } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';
import { nodeWithTsx, startFixture } from './run-fixture';
import { forEachSqliteDriver } from './sqlite-drivers';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});

forEachSqliteDriver('incident-store-crash.test.ts', () => {
  describe('IncidentStore after a SIGKILL', () => {
    it('reopens cleanly with every incident the killed writer reported as saved', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'corral-crash-'));
      dirs.push(dir);
      const writer = startFixture(nodeWithTsx('write-incidents-forever.ts', dir));
      const committed = () =>
        writer.lines.slice(1).map((l) => (JSON.parse(l) as { committed: string[] }).committed);
      await waitFor('the writer to report 30 committed batches', () => writer.lines.length > 30, {
        timeoutMs: 30_000,
      });
      expect(JSON.parse(writer.lines[0]!)).toEqual({ ready: true, problem: null });

      // It is writing in a tight loop: the kill lands at an arbitrary point of a transaction.
      process.kill(writer.pid, 'SIGKILL');
      expect(await writer.exit).toEqual({ code: null, signal: 'SIGKILL' });
      const reported = committed().flat();
      expect(statSync(join(dir, `${INCIDENTS_FILE}-wal`)).size).toBeGreaterThan(0);

      const store = IncidentStore.open(dir);
      try {
        expect(store.problem).toBeNull();
        const saved = new Set(store.list({ limit: 1_000_000 }).map((i) => i.id));
        expect(reported.filter((id) => !saved.has(id))).toEqual([]);
        // At most the batch in flight (committed, not yet printed) is there beyond what was reported.
        expect(saved.size - reported.length).toBeLessThanOrEqual(20);
        expect(store.upsert(store.list({ limit: 1 }))).toBe(true);
      } finally {
        store.close();
      }
    });
  });
});
