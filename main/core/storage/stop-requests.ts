import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensureOwnDataDir, readOwnFile, writeOwnFileAtomically } from './own-data-dir';
import type { SignalRecord } from '../../../shared/model';

export const STOP_REQUESTS_DIR = 'stop-requests';
/** A request older than this is stale: its teardown has long finished. */
const KEEP_MS = 10 * 60_000;

export interface StopRequest {
  groupId: string;
  pgid: number;
  /** The processes the stop was aimed at, as they were just before the first signal. */
  members: Array<{ pid: number; startKey: number }>;
  at: number;
  /** pid of the Corral that asked. */
  by: number;
  /** The command that asked, in words ("corral kill"). */
  via?: string;
  /** The signals sent so far, written again after each one (the timeline shows them). */
  signals?: SignalRecord[];
}

/**
 * Leaves word in the data directory, before the first signal, that Corral was asked to stop this group:
 * whichever Corral records incidents there (the app, a `watch`) then closes the incident as
 * `stopped-by-user`, as it does for a stop asked in its own window. Best effort: never throws.
 * Returns a writer that records the signals sent so far in the same note, for the group's timeline.
 */
export function recordStopRequest(
  dataDir: string,
  request: Omit<StopRequest, 'by'>,
): (signals: readonly SignalRecord[]) => void {
  const dir = join(dataDir, STOP_REQUESTS_DIR);
  const name = `${request.pgid}-${request.at}-${process.pid}.json`;
  const write = (signals: readonly SignalRecord[]): void => {
    try {
      ensureOwnDataDir(dataDir, STOP_REQUESTS_DIR);
      writeOwnFileAtomically(join(dir, name), JSON.stringify({ ...request, by: process.pid, signals }));
    } catch {
      // Without the note the incident closes as `exited`: wrong word, nothing lost.
    }
  };
  write([]);
  return write;
}

function readRequests(dataDir: string, now: number): StopRequest[] {
  const dir = join(dataDir, STOP_REQUESTS_DIR);
  let names: string[];
  try {
    ensureOwnDataDir(dataDir, STOP_REQUESTS_DIR);
    names = readdirSync(dir).filter((n) => n.endsWith('.json') && !n.startsWith('.'));
  } catch {
    return [];
  }
  const out: StopRequest[] = [];
  for (const name of names) {
    try {
      const r = JSON.parse(readOwnFile(join(dir, name)) ?? '') as StopRequest;
      if (typeof r.at !== 'number' || now - r.at > KEEP_MS) {
        rmSync(join(dir, name), { force: true });
        continue;
      }
      if (Number.isSafeInteger(r.pgid) && Array.isArray(r.members)) out.push(r);
    } catch {
      rmSync(join(dir, name), { force: true });
    }
  }
  return out;
}

/**
 * The stop requests one Corral reads: those left in the data directories whose incidents it writes (its
 * incident store watches its directory while it holds the writer lock). Owned by whoever assembles the
 * service (create-service.ts), so that two services in one process share nothing.
 */
export class StopRequestInbox {
  /** Data directories whose incidents this service writes. */
  private readonly written = new Set<string>();

  /** Reads the requests left in `dataDir` until the function returned is called. */
  watch(dataDir: string): () => void {
    this.written.add(dataDir);
    return () => this.written.delete(dataDir);
  }

  /**
   * The requests another command (or this one) left since `since` to stop this group: same PGID, and
   * the same group id or one of the same processes (pid and start), so a reused PGID never matches.
   */
  readonly requestsFor = (
    group: { id: string; pgid: number; members: Iterable<{ pid: number; startKey: number }> },
    since: number,
    now: number,
  ): StopRequest[] => {
    if (this.written.size === 0) return [];
    const members = [...group.members];
    const out: StopRequest[] = [];
    for (const dir of this.written) {
      for (const r of readRequests(dir, now)) {
        if (r.pgid !== group.pgid || r.at < since) continue;
        if (
          r.groupId === group.id ||
          r.members.some((m) => members.some((p) => p.pid === m.pid && p.startKey === m.startKey))
        )
          out.push(r);
      }
    }
    return out;
  };
}
