import { spawn, type SpawnOptions } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { groupMembers } from './proc';
import { tmpdirEnv } from './test-tmpdir';
import { waitFor } from './wait-for';

/** The SQLite driver a storage test chose (test/storage/sqlite-drivers.ts), for the Corral it starts. */
export function chosenSqliteDriver(): Record<string, string> {
  const driver = process.env.CORRAL_SQLITE_DRIVER;
  return driver ? { CORRAL_SQLITE_DRIVER: driver } : {};
}

/**
 * A minimal environment for fixtures, so a "plain user process" in a test never inherits the agent
 * markers of whatever shell runs the tests.
 */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: process.env.HOME ?? '/root',
    LC_ALL: 'C',
    CORRAL_TEST_FIXTURE: '1',
    ...tmpdirEnv(),
    ...chosenSqliteDriver(),
    ...extra,
  };
}

/** Every process group a test created; removed by PGID after each test. */
const created = new Set<number>();
/** The directories those groups were given; removed after each test, once the groups are gone. */
const createdDirs = new Set<string>();

export function trackGroup(pgid: number): void {
  if (pgid > 1) created.add(pgid);
}

/** Removes `dir` after the test, once the process groups it created (which may write in it) are gone. */
export function trackDir(dir: string): void {
  createdDirs.add(dir);
}

/** A new temporary directory named from `prefix`, removed after the test once its groups are gone. */
export function tempDirForTest(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  trackDir(dir);
  return dir;
}

export interface SpawnedGroup {
  pid: number;
  pgid: number;
  dir: string;
  /** Waits until the fixture wrote `name` in its directory, and returns the file's contents. */
  ready(name: string, timeoutMs?: number): Promise<string>;
}

/**
 * Runs `script` with bash as the leader of a new session and process group (as agents run tool calls).
 * The script gets $DIR, a private directory for ready files.
 */
export function spawnGroup(
  script: string,
  { env = cleanEnv(), argv0 }: { env?: Record<string, string>; argv0?: string } = {},
): SpawnedGroup {
  const dir = tempDirForTest('corral-test-');
  const options: SpawnOptions = { detached: true, stdio: 'ignore', env: { ...env, DIR: dir } };
  if (argv0) options.argv0 = argv0;
  const child = spawn('/bin/bash', ['-c', script], options);
  if (child.pid === undefined) throw new Error(`could not spawn: ${script}`);
  child.unref();
  trackGroup(child.pid);
  return {
    pid: child.pid,
    pgid: child.pid,
    dir,
    ready: (name, timeoutMs = 10_000) =>
      waitFor(
        `ready file ${name} from ${script}`,
        () => {
          try {
            const text = readFileSync(join(dir, name), 'utf8');
            return text.endsWith('\n') ? text.trim() : undefined;
          } catch {
            return undefined;
          }
        },
        { timeoutMs },
      ),
  };
}

/**
 * SIGKILLs every group this test created (by PGID), waits until each is empty, then removes the
 * directories they were given.
 */
export async function removeCreatedGroups(): Promise<void> {
  const pgids = [...created];
  created.clear();
  for (const pgid of pgids) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // ESRCH: already empty.
    }
  }
  for (const pgid of pgids) {
    await waitFor(`process group ${pgid} to empty`, () => groupMembers(pgid).length === 0, {
      timeoutMs: 5000,
    });
  }
  for (const dir of createdDirs) removeDir(dir);
  createdDirs.clear();
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
