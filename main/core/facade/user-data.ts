// What a one-shot command reads from the user's data directory: its place, the keeps and the history
// that name groups. Each read fails soft (nothing kept, nothing named) but for what it must say.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Incident } from '../../../shared/model';
import type { KeepRecord } from '../analysis/kept-marks';
import { resolveDataDir } from '../storage/data-dir';
import { INCIDENTS_FILE, IncidentStore } from '../storage/incident-store';
import { loadKeeps } from '../storage/keeps';
import { DataDirRefused } from '../storage/own-data-dir';

/** The data directory a command reads and writes (CORRAL_DATA_DIR, else the per-user one). */
export function userDataDir(): string {
  return resolveDataDir(process.env, process.platform, homedir());
}

/** The user's keeps; none when the list is missing, or refused (`refused` says why). */
export function keepsOrNone(refused: (message: string) => void): KeepRecord[] {
  try {
    return loadKeeps(userDataDir());
  } catch (err) {
    if (err instanceof DataDirRefused) refused(`${err.message} No group is shown kept.`);
    return [];
  }
}

/** The newest incidents in the data directory; none when there is no history to read. */
export function recentIncidents(dataDir = userDataDir(), limit = 1_000): Incident[] {
  if (!existsSync(join(dataDir, INCIDENTS_FILE))) return [];
  let store: IncidentStore | null = null;
  try {
    store = IncidentStore.open(dataDir, { role: 'reader' });
    return store.list({ limit });
  } catch {
    return [];
  } finally {
    store?.close();
  }
}
