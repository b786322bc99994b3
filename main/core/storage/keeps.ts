import { join } from 'node:path';
import type { GroupView } from '../../../shared/model';
import { keepNames, type KeepRecord, type KeepTarget } from '../analysis/kept-marks';
import { DataDirRefused, ensureOwnDataDir, readOwnFile, writeOwnFileAtomically } from './own-data-dir';

/**
 * Groups the user asked Corral to keep running (`corral keep`, the UI's "Keep running"), in
 * `<data dir>/keeps.json` beside the incidents. The file is replaced whole through a temporary file
 * and a rename, never written through a link (own-data-dir.ts), so a reader sees the old list or the
 * new one. Two keeps written at the same instant may lose one (last writer wins); each is one click.
 */
export const KEEPS_FILE = 'keeps.json';

export { DEFAULT_KEEP_MS, MAX_KEEP_MS } from '../../../shared/words/keep-duration';

export function keepsPath(dataDir: string): string {
  return join(dataDir, KEEPS_FILE);
}

/**
 * The keep list is not one Corral can read (not JSON, or no `keeps` list): refused, never taken for an
 * empty list, so that the next `keep` does not overwrite what the user had.
 */
export class KeepsFileMalformed extends DataDirRefused {}

/** Pure: why the file's text is not a keep list, or null when it is one. */
function malformation(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  if (!Array.isArray((value as { keeps?: unknown }).keeps)) return 'no "keeps" list';
  return null;
}

/**
 * Pure: the file's text → its well-formed records (a malformed record is skipped); throws
 * KeepsFileMalformed, naming `path`, when the text is not a keep list at all.
 */
export function parseKeeps(text: string, path = KEEPS_FILE): KeepRecord[] {
  let value: unknown;
  let why: string | null;
  try {
    value = JSON.parse(text);
    why = malformation(value);
  } catch (err) {
    why = `not valid JSON: ${(err as Error).message}`;
  }
  if (why !== null)
    throw new KeepsFileMalformed(
      `${path} is not a keep list Corral can read (${why}); nothing was changed. ` +
        'Fix it, or move it aside and Corral starts a new list.',
    );
  const list = (value as { keeps: unknown[] }).keeps;
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

/**
 * Every record in the data directory's keep list (expired ones included); none when there is no file.
 * Throws (DataDirRefused) for a file Corral refuses: a link, another's, too large, malformed.
 */
export function loadKeeps(dataDir: string): KeepRecord[] {
  const path = keepsPath(dataDir);
  const text = readOwnFile(path);
  return text === null ? [] : parseKeeps(text, path);
}

function saveKeeps(dataDir: string, keeps: readonly KeepRecord[]): void {
  ensureOwnDataDir(dataDir);
  writeOwnFileAtomically(keepsPath(dataDir), `${JSON.stringify({ version: 1, keeps }, null, 1)}\n`);
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
export function removeKeeps(dataDir: string, group: KeepTarget, now: number): number {
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

/**
 * Keeps end with their group: the keeps in force that name one of these live groups (every group on the
 * machine, as a snapshot sees them). The others (expired, or their group exited or was stopped) are
 * released from the file; returns those left.
 */
export function releaseEndedKeeps(dataDir: string, live: readonly KeepTarget[], now: number): KeepRecord[] {
  const all = loadKeeps(dataDir);
  const rest = all.filter((k) => k.until > now && live.some((g) => keepNames(k, g)));
  if (rest.length !== all.length) saveKeeps(dataDir, rest);
  return rest;
}
