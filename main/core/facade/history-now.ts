// `corral history`: a page of the incidents recorded in the user's data directory.
import type { IncidentListRequest } from '../../../shared/contract';
import type { Incident } from '../../../shared/model';
import { keepNames, type KeepRecord } from '../analysis/kept-marks';
import { IncidentStore } from '../storage/incident-store';
import { keepsOrNone, userDataDir } from './user-data';

export interface HistoryPage {
  incidents: Incident[];
  /** More incidents match past this page. */
  more: boolean;
  /** What the store found wrong while reading (malformed rows), or null. */
  problem: string | null;
  /** Whether an open incident's group is kept now (keeps end with their group). */
  kept: (incident: Incident) => boolean;
}

/** `keepsRefused`: why the keeps could not be read (none is shown kept). */
export function historyNow(query: IncidentListRequest, keepsRefused: (message: string) => void): HistoryPage {
  const limit = query.limit ?? 100;
  const store = IncidentStore.open(userDataDir(), { role: 'reader' });
  try {
    // One more than asked: whether a next page exists.
    const incidents = store.list({ ...query, limit: limit + 1 });
    const more = incidents.length > limit;
    if (more) incidents.pop();
    // Read on the first question only: a JSON page never asks.
    let keeps: KeepRecord[] | null = null;
    const kept = (i: Incident): boolean => {
      const now = Date.now();
      keeps ??= keepsOrNone(keepsRefused).filter((k) => k.until > now);
      return keeps.some((k) => keepNames(k, { id: i.groupId, pgid: i.pgid, processes: i.processes }));
    };
    // After the read: it is the read that finds malformed rows.
    return { incidents, more, problem: store.problem, kept };
  } finally {
    store.close();
  }
}
