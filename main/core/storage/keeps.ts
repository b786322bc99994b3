import { join } from 'node:path';
import type { GroupView, KeptMark } from '../../../shared/model';
import { ensureOwnDataDir, readOwnFile, writeOwnFileAtomically } from './own-data-dir';

/**
 * Groups the user asked Corral to keep running (`corral keep`, the UI's "Keep running"), in
 * `<data dir>/keeps.json` beside the incidents. The file is replaced whole through a temporary file
 * and a rename, never written through a link (own-data-dir.ts), so a reader sees the old list or the
 * new one. Two keeps written at the same instant may lose one (last writer wins); each is one click.
 */
export const KEEPS_FILE = 'keeps.json';

export { DEFAULT_KEEP_MS, MAX_KEEP_MS } from '../../../shared/keep-duration';

export interface KeepRecord {
  /** The group id (`<pgid>:<anchorPid>:<anchorStartKey>`) when kept. */
  groupId: string;
  pgid: number;
  /**
   * The members (pid and start stamp) when kept: a group whose leader exits is known by another anchor
   * afterwards, and is still this group while one of these lives in the same PGID. A reused PGID holds
   * none of them, so it never inherits the keep.
   */
  members: Array<{ pid: number; startKey: number }>;
  since: number;
  until: number;
  note: string | null;
}

export function keepsPath(dataDir: string): string {
  return join(dataDir, KEEPS_FILE);
}

/** Pure: the file's text → its well-formed records; anything else is skipped. */
export function parseKeeps(text: string): KeepRecord[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  const list = (value as { keeps?: unknown } | null)?.keeps;
  if (!Array.isArray(list)) return [];
  const out: KeepRecord[] = [];
  for (const k of list as Array<Partial<KeepRecord>>) {
    if (typeof k?.groupId !== 'string' || !Number.isSafeInteger(k.pgid)) continue;
    if (typeof k.until !== 'number' || typeof k.since !== 'number') continue;
    const members = Array.isArray(k.members)
      ? k.members.filter((m) => Number.isSafeInteger(m?.pid) && typeof m?.startKey === 'number')
      : [];
    const note = typeof k.note === 'string' ? k.note : null;
    out.push({ groupId: k.groupId, pgid: k.pgid!, members, since: k.since, until: k.until, note });
  }
  return out;
}

/** Every record in the data directory's keep list (expired ones included); none when there is no file. */
export function loadKeeps(dataDir: string): KeepRecord[] {
  const text = readOwnFile(keepsPath(dataDir));
  return text === null ? [] : parseKeeps(text);
}

function saveKeeps(dataDir: string, keeps: readonly KeepRecord[]): void {
  ensureOwnDataDir(dataDir);
  writeOwnFileAtomically(keepsPath(dataDir), `${JSON.stringify({ version: 1, keeps }, null, 1)}\n`);
}

/** Pure: whether `record` names this live group (same id, or same PGID and one of the same processes). */
export function keepNames(record: KeepRecord, group: Pick<GroupView, 'id' | 'pgid' | 'processes'>): boolean {
  if (record.groupId === group.id) return true;
  if (record.pgid !== group.pgid) return false;
  return group.processes.some((p) =>
    record.members.some((m) => m.pid === p.pid && m.startKey === p.startKey),
  );
}

/** Pure: the keep in force on a group at `now`, or null (an expired keep is no keep). */
export function keptMarkOf(
  group: Pick<GroupView, 'id' | 'pgid' | 'processes'>,
  keeps: readonly KeepRecord[],
  now: number,
): KeptMark | null {
  let best: KeepRecord | null = null;
  for (const k of keeps)
    if (k.until > now && keepNames(k, group) && (!best || k.until > best.until)) best = k;
  return best && { until: best.until, since: best.since, note: best.note };
}

/** Pure: the groups with `kept` set (a new object where it changed), so every group carries the field. */
export function markKept(
  groups: readonly GroupView[],
  keeps: readonly KeepRecord[],
  now: number,
): GroupView[] {
  return groups.map((g) => {
    const mark = keptMarkOf(g, keeps, now);
    const old = g.kept ?? null;
    if (old === mark || (old && mark && old.until === mark.until && old.note === mark.note)) {
      return g.kept === undefined ? { ...g, kept: null } : g;
    }
    return { ...g, kept: mark };
  });
}

/** Keeps `group` until `until` (replacing an earlier keep of it); returns the record written. */
export function addKeep(
  dataDir: string,
  group: Pick<GroupView, 'id' | 'pgid' | 'processes'>,
  { until, note, now }: { until: number; note: string | null; now: number },
): KeepRecord {
  const record: KeepRecord = {
    groupId: group.id,
    pgid: group.pgid,
    members: group.processes
      .filter((p) => p.state !== 'Z')
      .map((p) => ({ pid: p.pid, startKey: p.startKey })),
    since: now,
    until,
    note,
  };
  // Expired records are dropped on each write, so the file never grows past the keeps in force.
  const rest = loadKeeps(dataDir).filter((k) => k.until > now && !keepNames(k, group));
  saveKeeps(dataDir, [...rest, record]);
  return record;
}

/** Ends every keep naming `group`; returns how many there were. */
export function removeKeeps(
  dataDir: string,
  group: Pick<GroupView, 'id' | 'pgid' | 'processes'>,
  now: number,
): number {
  const all = loadKeeps(dataDir);
  const rest = all.filter((k) => k.until > now && !keepNames(k, group));
  const removed = all.filter((k) => k.until > now).length - rest.length;
  if (rest.length !== all.length) saveKeeps(dataDir, rest);
  return removed;
}

/** Ends the keep recorded under this exact group id (one whose group is gone); returns how many. */
export function removeKeepById(dataDir: string, groupId: string): number {
  const all = loadKeeps(dataDir);
  const rest = all.filter((k) => k.groupId !== groupId);
  if (rest.length !== all.length) saveKeeps(dataDir, rest);
  return all.length - rest.length;
}
