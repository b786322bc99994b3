import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Incident } from '../../shared/model';
import { resolveDataDir } from '../core/storage/data-dir';
import { INCIDENTS_FILE, IncidentStore } from '../core/storage/incident-store';

/** The newest incidents in the data directory; none when there is no history to read. */
export function recentIncidents(dataDir: string, limit = 1_000): Incident[] {
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

/**
 * The groups history named (newest first), for a one-shot snapshot: a group a running Corral saw first
 * keeps the id it gave it (analysis/recorded-group-ids.ts), in `ps`, `kill --port` and `keep` alike.
 */
export function namedGroups(): Incident[] {
  return recentIncidents(resolveDataDir(process.env, process.platform, homedir()));
}
