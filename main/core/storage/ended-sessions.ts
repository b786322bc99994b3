import { fstatSync } from 'node:fs';
import { join } from 'node:path';
import type { EndedSession } from '../analysis/session-ended';
import {
  closeUntrusted,
  isRefusal,
  openUntrustedFile,
  readRange,
  type OpenedFile,
} from '../files/untrusted-file';
import { appendOwnFile, ensureOwnDataDir, writeOwnFileAtomically } from './own-data-dir';

/**
 * Sessions an agent told Corral (through its SessionEnd hook) have ended, so their leftovers can be
 * flagged `session-ended`. One JSON line per ended session in `<data dir>/hooks/ended-sessions.jsonl`,
 * appended with O_APPEND in a single write of one short line: concurrent hooks (several agents
 * ending at once) never interleave or lose lines, and no lock is needed. Written only in a data
 * directory of the user's own, never through a link (own-data-dir.ts).
 *
 * Bounded: only ids shaped as agents' session ids are recorded (a UUID is 36 characters), the file is
 * compacted past COMPACT_AT_BYTES (the newest KEEP_SESSIONS ends of the last KEEP_DAYS days), and the
 * reader takes the file's last READ_BYTES, skipping lines it cannot use: one bad writer never erases
 * the ends recorded after it.
 */

export function endedSessionsPath(dataDir: string): string {
  return join(dataDir, 'hooks', 'ended-sessions.jsonl');
}

/** Agents' session ids: UUIDs, or at least a short run of letters, digits, `-`, `_`, `.`, `:`. */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
const AGENT_NAME = /^[a-z0-9-]{1,32}$/;
export const COMPACT_AT_BYTES = 512 * 1024;
const KEEP_SESSIONS = 2000;
const KEEP_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Far more than the file holds once compacted: the tail read when something else made it larger. */
const READ_BYTES = 4 * 1024 * 1024;

export function isSessionId(id: string): boolean {
  return SESSION_ID.test(id);
}

/**
 * Records the end (a session id not shaped as one is not recorded: false), then compacts the file when
 * it grew past COMPACT_AT_BYTES.
 */
export function recordSessionEnded(dataDir: string, ended: EndedSession): boolean {
  if (!isSessionId(ended.sessionId) || !AGENT_NAME.test(ended.agent)) return false;
  ensureOwnDataDir(dataDir, 'hooks');
  const path = endedSessionsPath(dataDir);
  appendOwnFile(path, `${JSON.stringify(ended)}\n`);
  compactIfLarge(path, ended.endedAt);
  return true;
}

/** Pure: the store's text → session id → its (latest) end. Lines that do not parse, or carry no session id, are skipped. */
export function parseEndedSessions(text: string): Map<string, EndedSession> {
  const out = new Map<string, EndedSession>();
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.length > 512) continue;
    try {
      const v = JSON.parse(line) as Partial<EndedSession>;
      if (typeof v.sessionId === 'string' && isSessionId(v.sessionId) && typeof v.endedAt === 'number') {
        const prev = out.get(v.sessionId);
        if (!prev || prev.endedAt < v.endedAt) {
          const agent = typeof v.agent === 'string' && AGENT_NAME.test(v.agent) ? v.agent : '';
          const reason =
            typeof v.reason === 'string' && v.reason !== '' ? { reason: v.reason.slice(0, 64) } : {};
          out.set(v.sessionId, { agent, sessionId: v.sessionId, endedAt: v.endedAt, ...reason });
        }
      }
    } catch {
      // A torn or foreign line: skip it, keep the rest.
    }
  }
  return out;
}

/** Pure: the ends worth keeping at `now`: of the last KEEP_DAYS days, the newest KEEP_SESSIONS, oldest first. */
export function compactEndedSessions(ended: ReadonlyMap<string, EndedSession>, now: number): EndedSession[] {
  return [...ended.values()]
    .filter((e) => e.endedAt >= now - KEEP_DAYS * DAY_MS)
    .sort((a, b) => a.endedAt - b.endedAt)
    .slice(-KEEP_SESSIONS);
}

/** The text of bytes [from, to) of the file, from its first whole line on; null when unreadable. */
function readLines(file: OpenedFile, from: number, to: number): string | null {
  const bytes = readRange(file, from, to);
  if (isRefusal(bytes)) return null;
  const text = bytes.toString('utf8');
  return from > 0 ? text.slice(text.indexOf('\n') + 1) : text;
}

function openStore(path: string): OpenedFile | null {
  const file = openUntrustedFile(path, { maxBytes: Infinity, owner: process.geteuid?.() });
  return isRefusal(file) ? null : file;
}

/**
 * Rewrites the file with what compactEndedSessions keeps, through a rename; lines other hooks appended
 * to the old file meanwhile (up to the rename) are carried over after it.
 */
function compactIfLarge(path: string, now: number): void {
  const file = openStore(path);
  if (!file) return;
  try {
    if (file.size <= COMPACT_AT_BYTES) return;
    const text = readLines(file, Math.max(0, file.size - READ_BYTES), file.size);
    if (text === null) return;
    const kept = compactEndedSessions(parseEndedSessions(text), now);
    writeOwnFileAtomically(path, kept.map((e) => `${JSON.stringify(e)}\n`).join(''));
    const grownTo = fstatSync(file.fd).size;
    const late = grownTo > file.size ? readRange(file, file.size, grownTo) : null;
    if (late && !isRefusal(late) && late.length > 0) appendOwnFile(path, late.toString('utf8'));
  } finally {
    closeUntrusted(file);
  }
}

/** The ended sessions recorded; none when the file is absent or cannot be read (a flag is decoration). */
export function loadEndedSessions(dataDir: string): Map<string, EndedSession> {
  const file = openStore(endedSessionsPath(dataDir));
  if (!file) return new Map();
  try {
    return parseEndedSessions(readLines(file, Math.max(0, file.size - READ_BYTES), file.size) ?? '');
  } finally {
    closeUntrusted(file);
  }
}
