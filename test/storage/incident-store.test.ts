import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { INCIDENTS_FILE, IncidentStore } from '../../main/core/storage/incident-store';
import { MAX_PROCESSES_PER_INCIDENT } from '../../main/core/storage/incident-table';
import { removeDir } from '../support/spawned-groups';
import { makeIncident } from './make-incident';
import { forEachSqliteDriver } from './sqlite-drivers';

const dirs: string[] = [];
const stores: IncidentStore[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'corral-store-'));
  dirs.push(dir);
  return dir;
}

function open(dir: string, options?: Parameters<typeof IncidentStore.open>[1]): IncidentStore {
  const store = IncidentStore.open(dir, options);
  stores.push(store);
  return store;
}

afterEach(() => {
  for (const store of stores.splice(0)) store.close();
  for (const dir of dirs.splice(0)) removeDir(dir);
});

function fillStore(dir: string, count: number): void {
  const store = open(dir);
  store.upsert(Array.from({ length: count }, (_, i) => makeIncident(`old-${i}`, { openedAt: 1000 + i })));
  store.close();
}

forEachSqliteDriver('incident-store.test.ts', () => {
  describe('IncidentStore', () => {
    it('keeps incidents across a restart', () => {
      const dir = join(tempDir(), 'nested', 'corral');
      const first = open(dir);
      expect(first.problem).toBeNull();
      expect(first.upsert([makeIncident('a'), makeIncident('b', { kind: 'runaway', agent: 'codex' })])).toBe(
        true,
      );
      expect(first.lastWriteDurable).toBe(true);
      // A later tick updates one incident and closes it.
      first.upsert([
        makeIncident('a', { cpuSeconds: 42.5, peakRssBytes: 9e9, closedAt: 5e12, end: 'stopped-by-user' }),
      ]);
      first.close();

      const second = open(dir);
      expect(second.problem).toBeNull();
      expect(second.onDisk).toBe(true);
      const byId = new Map(second.list().map((i) => [i.id, i]));
      expect(byId.get('a')).toEqual(
        makeIncident('a', { cpuSeconds: 42.5, peakRssBytes: 9e9, closedAt: 5e12, end: 'stopped-by-user' }),
      );
      expect(byId.get('b')).toEqual(makeIncident('b', { kind: 'runaway', agent: 'codex' }));
      expect(second.openIncidents().map((i) => i.id)).toEqual(['b']);
    });

    it('lists most recent first, filtered by flag and agent, up to a limit', () => {
      const store = open(tempDir());
      store.upsert([
        makeIncident('1', { openedAt: 1, kind: 'orphan', agent: 'codex' }),
        makeIncident('2', { openedAt: 2, kind: 'runaway', agent: 'codex' }),
        makeIncident('3', { openedAt: 3, kind: 'runaway', agent: 'claude-code' }),
        makeIncident('4', { openedAt: 4, kind: 'held-pipe', agent: null }),
      ]);
      expect(store.list().map((i) => i.id)).toEqual(['4', '3', '2', '1']);
      expect(store.list({ limit: 2 }).map((i) => i.id)).toEqual(['4', '3']);
      expect(store.list({ flag: 'runaway' }).map((i) => i.id)).toEqual(['3', '2']);
      expect(store.list({ agent: 'codex' }).map((i) => i.id)).toEqual(['2', '1']);
      expect(store.list({ flag: 'runaway', agent: 'codex' }).map((i) => i.id)).toEqual(['2']);
    });

    it('rotates out the oldest closed incidents beyond the bound and keeps open ones', () => {
      const dir = tempDir();
      const store = open(dir, { maxIncidents: 50 });
      const closed = Array.from({ length: 80 }, (_, i) =>
        makeIncident(`closed-${i}`, { openedAt: 1000 + i, closedAt: 2000 + i, end: 'exited' }),
      );
      const stillOpen = Array.from({ length: 5 }, (_, i) => makeIncident(`open-${i}`, { openedAt: 500 + i }));
      for (let i = 0; i < closed.length; i += 10) store.upsert(closed.slice(i, i + 10));
      store.upsert(stillOpen);
      store.close();

      const reopened = open(dir, { maxIncidents: 50 });
      const ids = reopened.list({ limit: 1000 }).map((i) => i.id);
      expect(ids).toHaveLength(50);
      expect(ids).toEqual(expect.arrayContaining(stillOpen.map((i) => i.id)));
      // The 45 closed incidents that ended last survive.
      expect(ids.filter((id) => id.startsWith('closed-')).sort()).toEqual(
        closed
          .slice(35)
          .map((i) => i.id)
          .sort(),
      );
    });

    it('stays bounded on disk however long it runs', () => {
      const dir = tempDir();
      const store = open(dir, { maxIncidents: 100 });
      const bigCommand = 'x'.repeat(2000);
      const sizes: number[] = [];
      for (let tick = 0; tick < 200; tick++) {
        store.upsert(
          Array.from({ length: 25 }, (_, i) =>
            makeIncident(`t${tick}-${i}`, {
              openedAt: tick * 100 + i,
              closedAt: tick * 100 + i + 1,
              end: 'exited',
              processes: [{ pid: 1, startKey: 1, command: bigCommand }],
            }),
          ),
        );
        if (tick % 50 === 49) sizes.push(diskBytes(dir));
      }
      expect(store.list({ limit: 10_000 })).toHaveLength(100);
      // 5000 incidents of ~2 kB went through; the files hold about 100 of them, and stop growing.
      expect(Math.max(...sizes)).toBeLessThan(2_000_000);
      expect(sizes.at(-1)).toBeLessThanOrEqual(sizes[1]! * 1.2);
    });

    it('caps the processes kept per incident', () => {
      const store = open(tempDir());
      const processes = Array.from({ length: 1000 }, (_, pid) => ({
        pid,
        startKey: pid,
        command: `mcp-server ${pid}`,
      }));
      store.upsert([makeIncident('many', { processes })]);
      expect(store.list()[0]!.processes).toHaveLength(MAX_PROCESSES_PER_INCIDENT);
    });

    it.each([
      ['truncated', (file: string) => truncateSync(file, Math.floor(statSync(file).size / 2))],
      ['garbage', (file: string) => writeFileSync(file, Buffer.alloc(64 * 1024, 'not a database. '))],
    ])('moves a %s file aside, starts afresh and says so', (_name, damage) => {
      const dir = tempDir();
      fillStore(dir, 3000);
      const file = join(dir, INCIDENTS_FILE);
      damage(file);
      writeFileSync(`${file}-wal`, 'stale write-ahead log');
      const damagedBytes = readFileSync(file);

      const store = open(dir);
      const aside = readdirSync(dir).filter((n) => n.startsWith('incidents-corrupt-') && n.endsWith('.db'));
      expect(aside).toHaveLength(1);
      const moved = aside[0]!;
      expect(moved).toMatch(/^incidents-corrupt-\d{8}T\d{6}Z\.db$/);
      expect(readFileSync(join(dir, moved)).equals(damagedBytes)).toBe(true);
      expect(readFileSync(join(dir, `${moved}-wal`), 'utf8')).toBe('stale write-ahead log');
      expect(store.problem).toContain(`The incident history ${file} was damaged`);
      expect(store.problem).toContain(`moved to ${join(dir, moved)}`);
      expect(store.problem).toContain('a new history was started');

      expect(store.list()).toEqual([]);
      expect(store.onDisk).toBe(true);
      expect(store.upsert([makeIncident('fresh')])).toBe(true);
      store.close();
      const reopened = open(dir);
      expect(reopened.problem).toBeNull();
      expect(reopened.list().map((i) => i.id)).toEqual(['fresh']);
    });

    it('keeps a second damaged file apart from the first', () => {
      const dir = tempDir();
      const now = () => Date.UTC(2026, 8, 13, 23, 44);
      for (let round = 0; round < 2; round++) {
        writeFileSync(join(dir, INCIDENTS_FILE), `garbage ${round} `.repeat(500));
        open(dir, { now }).close();
      }
      expect(
        readdirSync(dir)
          .filter((n) => /^incidents-corrupt-.*\.db$/.test(n))
          .sort(),
      ).toEqual(['incidents-corrupt-20260913T234400Z-2.db', 'incidents-corrupt-20260913T234400Z.db']);
    });

    it('treats an empty file as a new history', () => {
      const dir = tempDir();
      writeFileSync(join(dir, INCIDENTS_FILE), '');
      const store = open(dir);
      expect(store.problem).toBeNull();
      expect(store.upsert([makeIncident('a')])).toBe(true);
    });

    it('keeps working in memory when the data directory cannot be created', () => {
      const parent = tempDir();
      writeFileSync(join(parent, 'file'), '');
      const store = open(join(parent, 'file', 'corral'));
      expect(store.onDisk).toBe(false);
      expect(store.problem).toMatch(/^Incidents are kept in memory only .*cannot create the data directory/);
      expect(store.upsert([makeIncident('a')])).toBe(false);
      expect(store.lastWriteDurable).toBe(false);
      expect(store.list().map((i) => i.id)).toEqual(['a']);
      expect(existsSync(join(parent, 'file', 'corral'))).toBe(false);
    });

    it('refuses use after close', () => {
      const store = open(tempDir());
      store.close();
      expect(() => store.list()).toThrow('closed');
    });
  });

  function diskBytes(dir: string): number {
    return readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
  }
});
