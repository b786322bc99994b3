import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { INCIDENTS_FILE, IncidentStore } from '../../main/core/storage/incident-store';
import { runCli } from '../support/run-cli';
import { cleanEnv, removeDir, trackGroup } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';
import { makeIncident } from './make-incident';
import { nodeWithTsx, nodeWithTsxOnTmpfs, REPO_ROOT, runFixture, startFixture } from './run-fixture';
import { forEachSqliteDriver } from './sqlite-drivers';
import { openSqlite } from '../../main/core/storage/sqlite-driver';

const CLI = fileURLToPath(new URL('../../main/cli/corral.ts', import.meta.url));
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'corral-trust-'));
  dirs.push(dir);
  return dir;
}

/** Writes rows straight into the file, as another version or a damaged write could have left them. */
function insertRaw(
  dir: string,
  rows: Array<{ id: string; kind: string; body: string }>,
  version?: number,
): void {
  const db = openSqlite(join(dir, INCIDENTS_FILE));
  db.exec(`CREATE TABLE IF NOT EXISTS incidents (
    id TEXT PRIMARY KEY NOT NULL, kind TEXT NOT NULL, agent TEXT, is_open INTEGER NOT NULL,
    opened_at INTEGER NOT NULL, ended_at INTEGER NOT NULL, body TEXT NOT NULL)`);
  if (version !== undefined) db.exec(`PRAGMA user_version = ${version}`);
  const insert = db.prepare(
    'INSERT INTO incidents (id, kind, agent, is_open, opened_at, ended_at, body) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  for (const row of rows) insert.run(row.id, row.kind, 'claude-code', 1, 5, 5, row.body);
  db.close();
}

forEachSqliteDriver('trustworthy-history.test.ts', () => {
  describe('malformed incident rows', () => {
    it('are skipped and reported by corral history, which still lists the good ones', async () => {
      const dir = dataDir();
      const store = IncidentStore.open(dir);
      store.upsert([makeIncident('good-1', { groupId: '5000:5000:1' })]);
      store.close();
      const good = JSON.parse(JSON.stringify(makeIncident('x'))) as Record<string, unknown>;
      insertRaw(dir, [
        { id: 'nan', kind: 'orphan', body: JSON.stringify({ ...good, id: 'nan', openedAt: 'NaN' }) },
        {
          id: 'procs',
          kind: 'orphan',
          body: JSON.stringify({ ...good, id: 'procs', processes: 'sleep 600' }),
        },
        { id: 'junk', kind: 'orphan', body: '{not json' },
      ]);

      const table = await runCli(['history'], { env: { CORRAL_DATA_DIR: dir } });
      expect(table.code).toBe(0);
      expect(table.stdout).toContain('5000:5000:1');
      expect(table.stderr).toContain('3 incident rows');
      expect(table.stderr).toContain('incident nan: openedAt "NaN" is not a time');
      expect(table.stderr).toContain('incident procs: processes is not a list');
      expect(table.stderr).not.toMatch(/RangeError|TypeError|at /);

      const json = await runCli(['history', '--json'], { env: { CORRAL_DATA_DIR: dir } });
      expect(json.code).toBe(0);
      expect(
        (JSON.parse(json.stdout) as { incidents: Array<{ id: string }> }).incidents.map((i) => i.id),
      ).toEqual(['good-1']);
    });
  });

  describe('malformed open incident rows and corral watch', () => {
    it('are skipped and reported once on stderr; the watch goes on and exits cleanly', async () => {
      const dir = dataDir();
      const good = JSON.parse(JSON.stringify(makeIncident('x'))) as Record<string, unknown>;
      insertRaw(dir, [
        { id: 'nan', kind: 'orphan', body: JSON.stringify({ ...good, id: 'nan', openedAt: 'NaN' }) },
        { id: 'procs', kind: 'orphan', body: JSON.stringify({ ...good, id: 'procs', processes: 7 }) },
      ]);
      const watcher = spawn(process.execPath, ['--import', 'tsx', CLI, 'watch'], {
        // Without the tsx launcher in between: the signal reaches the watch itself.
        cwd: REPO_ROOT,
        env: { ...cleanEnv(), CORRAL_DATA_DIR: dir, CORRAL_CONFIG: '/nonexistent' },
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      trackGroup(watcher.pid!);
      let stdout = '';
      let stderr = '';
      watcher.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      watcher.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      await waitFor('the report of the skipped rows', () => stderr.includes('could not be read'), {
        timeoutMs: 30_000,
      });
      // A screen drawn after a poll: the watch went on past the bad rows (and has its SIGINT handler).
      await waitFor('a screen', () => stdout.includes('corral watch —'), { timeoutMs: 30_000 });
      const exit = new Promise<number | null>((resolve) => watcher.on('exit', (code) => resolve(code)));
      watcher.kill('SIGINT');
      expect(await exit).toBe(0);
      expect(stderr).toContain('2 incident rows');
      expect(stderr.split('could not be read')).toHaveLength(2);
      expect(stderr).toContain('incident nan: openedAt "NaN" is not a time');
      expect(stderr).not.toMatch(/TypeError|RangeError/);
    });
  });

  describe('a database written before incidents had phases', () => {
    it('merges the one-row-per-flag rows of one leak into one incident, CPU counted once', () => {
      const dir = dataDir();
      const legacy = (id: string, kind: string, openedAt: number, extra: Record<string, unknown> = {}) => {
        const base = makeIncident(id, { groupId: '77:77:9', pgid: 77, sid: 77, openedAt, cpuSeconds: 30 });
        const old: Record<string, unknown> = { ...base, kind, ...extra };
        for (const field of ['flags', 'phases', 'openedAtSource', 'earliestStartAt', 'closedAtSource'])
          delete old[field];
        return { id, kind, body: JSON.stringify(old) };
      };
      insertRaw(
        dir,
        [
          legacy('o', 'orphan', 1000),
          legacy('l', 'leaderless', 1000),
          legacy('r', 'runaway', 4000, { closedAt: 9000, end: 'cleared', cpuSeconds: 20 }),
          // The same PGID much later, after the first leak was over: another incident.
          legacy('later', 'orphan', 50_000, { groupId: '77:80:99' }),
        ],
        1,
      );
      const store = IncidentStore.open(dir);
      const incidents = store.list();
      store.close();
      expect(incidents.map((i) => i.id).sort()).toEqual(['later', 'o']);
      const merged = incidents.find((i) => i.id === 'o')!;
      expect(merged.kind).toBe('orphan');
      expect(merged.flags).toEqual(['orphan', 'leaderless', 'runaway']);
      expect(merged.phases).toEqual({
        orphanedAt: 1000,
        leaderlessAt: 1000,
        runaway: [{ from: 4000, until: 9000 }],
        heldPipe: [],
      });
      expect(merged.end).toBe('open');
      expect(merged.cpuSeconds).toBe(30);
    });
  });

  describe('several Corral processes on one data directory', () => {
    it("lets exactly one write; the others read and say so; a reader takes a SIGKILLed writer's place", async () => {
      const dir = dataDir();
      const first = startFixture(nodeWithTsx('hold-store.ts', dir, 'from-first'));
      const firstReport = JSON.parse(await waitFor('first store open', () => first.lines[0])) as {
        readOnly: string | null;
      };
      expect(firstReport.readOnly).toBeNull();

      const second = startFixture(nodeWithTsx('hold-store.ts', dir, 'from-second'));
      const secondReport = JSON.parse(await waitFor('second store open', () => second.lines[0])) as {
        readOnly: string | null;
        problem: string | null;
      };
      expect(secondReport.readOnly).toBe(
        `another Corral (pid ${first.pid}) is recording incidents in ${dir}; this one only reads them`,
      );
      expect(secondReport.problem).toContain('Read-only: another Corral');
      const reader = IncidentStore.open(dir, { role: 'reader' });
      expect(reader.list().map((i) => i.id)).toEqual(['from-first']);
      reader.close();

      process.kill(first.pid, 'SIGKILL');
      await first.exit;
      // The kernel freed the dead writer's lock: the second takes its place, says so, and writes.
      const takeover = JSON.parse(await waitFor('the second taking over', () => second.lines[1])) as {
        takeover: string;
        readOnly: string | null;
        durable: boolean;
      };
      expect(takeover).toEqual({
        takeover: `the Corral that recorded incidents in ${dir} (pid ${first.pid}) is gone; this one records them now`,
        readOnly: null,
        durable: true,
      });
      const fourth = startFixture(nodeWithTsx('hold-store.ts', dir, 'from-fourth'));
      const fourthReport = JSON.parse(await waitFor('fourth store open', () => fourth.lines[0])) as {
        readOnly: string | null;
      };
      expect(fourthReport.readOnly).toBe(
        `another Corral (pid ${second.pid}) is recording incidents in ${dir}; this one only reads them`,
      );
      process.kill(second.pid, 'SIGKILL');
      process.kill(fourth.pid, 'SIGKILL');
      await Promise.all([second.exit, fourth.exit]);
      const after = IncidentStore.open(dir, { role: 'reader' });
      expect(
        after
          .list()
          .map((i) => i.id)
          .sort(),
      ).toEqual(['from-first', 'from-second-after-takeover']);
      after.close();
    });
  });

  describe('a data directory on a full file system', () => {
    it('keeps incidents opened while full in memory, says so once, and writes them all when space returns', async () => {
      const mount = dataDir();
      // 256 KiB: SQLite's WAL index alone takes 32 KiB of it, and each write touches the filters' indexes.
      const report = await runFixture<{
        problemAtOpen: string | null;
        whileFull: { onDisk: boolean; durable: boolean };
        afterFree: { onDisk: boolean; problem: string | null };
        reported: Array<string | null>;
        ids: string[];
        stored: string[];
      }>(nodeWithTsxOnTmpfs('256k', mount, 'open-while-full.ts', mount));
      expect(report.problemAtOpen).toMatch(
        /^Incidents are kept in memory only and will be lost when Corral quits: /,
      );
      expect(report.whileFull).toEqual({ onDisk: false, durable: false });
      expect(report.afterFree).toEqual({ onDisk: true, problem: null });
      // Reported once when it went wrong (at open), once when it cleared: never once per write.
      expect(report.reported).toEqual([null]);
      expect(report.stored.sort()).toEqual([...report.ids].sort());
    });
  });
});
