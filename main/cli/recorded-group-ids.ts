import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { GroupView, Incident } from '../../shared/model';
import { INCIDENTS_FILE, IncidentStore } from '../core/storage/incident-store';

/**
 * The ids history and the running Corral use for these groups. A group's id is taken when Corral
 * first sees it (`<pgid>:<leader pid>:<start>`); a one-shot `ps` that finds the leader already gone can
 * only name the group by its oldest member. Both ids are the same group (`corral kill` accepts either);
 * `ps` shows the one history recorded, so that one group has one id on every screen.
 */
export function withRecordedIds(groups: readonly GroupView[], incidents: readonly Incident[]): GroupView[] {
  return groups.map((g) => {
    // Newest first: the PGID may have been another group's long ago, but never while a member lives.
    const recorded = incidents.find(
      (i) =>
        i.pgid === g.pgid &&
        i.processes.some((ip) => g.processes.some((p) => p.pid === ip.pid && p.startKey === ip.startKey)),
    );
    return recorded ? { ...g, id: recorded.groupId } : g;
  });
}

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
