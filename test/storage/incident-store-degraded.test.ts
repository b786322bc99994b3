import { chmodSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { INCIDENTS_FILE, IncidentStore } from '../../main/core/storage/incident-store';
import { AS_NOBODY, nobodyCannotRunCheckout, noteSkippedAsNobody } from '../support/as-nobody';
import { removeDir } from '../support/spawned-groups';
import { makeIncident } from './make-incident';
import { nodeWithTsx, nodeWithTsxOnTmpfs, runFixture } from './run-fixture';
import { forEachSqliteDriver } from './sqlite-drivers';

interface OnceReport {
  uid: number;
  durable: boolean;
  onDisk: boolean;
  problem: string | null;
  ids: string[];
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) {
    chmodSync(dir, 0o755);
    for (const name of readdirSync(dir)) chmodSync(join(dir, name), 0o755);
    removeDir(dir);
  }
});

/** A directory `nobody` can enter but not write (root ignores mode bits, so the writer runs as nobody). */
function readOnlyDir(prepare: (dir: string) => void = () => {}): string {
  const parent = mkdtempSync(join(tmpdir(), 'corral-ro-'));
  dirs.push(parent);
  chmodSync(parent, 0o755);
  const dir = join(parent, 'corral');
  mkdirSync(dir);
  prepare(dir);
  chmodSync(dir, 0o555);
  return dir;
}

const asNobody = (...argv: string[]) => [...AS_NOBODY, ...argv];

noteSkippedAsNobody('incident-store-degraded.test.ts');

forEachSqliteDriver('incident-store-degraded.test.ts', () => {
  describe.skipIf(nobodyCannotRunCheckout !== null)('IncidentStore on a read-only data directory', () => {
    it('keeps incidents in memory and says why', async () => {
      const dir = readOnlyDir();
      const report = await runFixture<OnceReport>(asNobody(...nodeWithTsx('store-once.ts', dir, 'new-1')));
      expect(report.uid).toBe(65534);
      expect(report).toMatchObject({ durable: false, onDisk: false, ids: ['new-1'] });
      expect(report.problem).toBe(
        `Incidents are kept in memory only and will be lost when Corral quits: cannot save to ${join(dir, INCIDENTS_FILE)}: the directory ${dir} is not writable (EACCES)`,
      );
      expect(readdirSync(dir)).toEqual([]);
    });

    it('still shows the history already on disk, and leaves it untouched', async () => {
      const dir = readOnlyDir((d) => {
        const store = IncidentStore.open(d);
        store.upsert([makeIncident('old-1', { openedAt: 1 })]);
        store.close();
      });
      const report = await runFixture<OnceReport>(asNobody(...nodeWithTsx('store-once.ts', dir, 'new-1')));
      expect(report).toMatchObject({ uid: 65534, durable: false, onDisk: false, ids: ['new-1', 'old-1'] });
      expect(report.problem).toContain('Incidents are kept in memory only');
      expect(report.problem).toContain(`the directory ${dir} is not writable (EACCES)`);

      const store = IncidentStore.open(dir);
      try {
        expect(store.list().map((i) => i.id)).toEqual(['old-1']);
      } finally {
        store.close();
      }
    });
  });

  interface FullDiskReport {
    problemAtOpen: string | null;
    saved: string[];
    inMemory: string[];
    whenFull: { onDisk: boolean; durable: boolean; problem: string | null; ids: string[] };
    stillFullDurable: boolean;
    afterFree: { durable: boolean; onDisk: boolean; problem: string | null };
    reopened: { problem: string | null; ids: string[] };
  }

  describe('IncidentStore on a full disk', () => {
    it('falls back to memory, then saves everything once space is free again', async () => {
      const mount = mkdtempSync(join(tmpdir(), 'corral-full-'));
      dirs.push(mount);
      const report = await runFixture<FullDiskReport>(
        nodeWithTsxOnTmpfs('512k', mount, 'fill-the-disk.ts', mount),
      );
      expect(report.problemAtOpen).toBeNull();
      expect(report.saved.length).toBeGreaterThan(0);
      expect(report.whenFull.onDisk).toBe(false);
      expect(report.whenFull.durable).toBe(false);
      expect(report.whenFull.problem).toMatch(
        /^Incidents are kept in memory only and will be lost when Corral quits: .*database or disk is full/,
      );
      expect(new Set(report.whenFull.ids)).toEqual(
        new Set([...report.saved, ...report.inMemory.slice(0, -1)]),
      );
      expect(report.stillFullDurable).toBe(false);
      expect(report.afterFree).toEqual({ durable: true, onDisk: true, problem: null });
      expect(new Set(report.reopened.ids)).toEqual(
        new Set([...report.saved, ...report.inMemory, 'after-free']),
      );
      expect(report.reopened.problem).toBeNull();
    });
  });
});
