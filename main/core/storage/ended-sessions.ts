import { join } from 'node:path';
import type { EndedSession } from '../analysis/session-ended';
import { isRefusal, readUntrustedFile } from '../sampling/untrusted-file';
import { appendOwnFile, ensureOwnDataDir } from './own-data-dir';

/**
 * Sessions an agent told Corral (through its SessionEnd hook) have ended, so their leftovers can be
 * flagged `session-ended`. One JSON line per ended session in `<data dir>/hooks/ended-sessions.jsonl`,
 * appended with O_APPEND in a single write of one short line: concurrent hooks (several agents
 * ending at once) never interleave or lose lines, and no lock is needed. Written only in a data
 * directory of the user's own, never through a link (own-data-dir.ts).
 */

export function endedSessionsPath(dataDir: string): string {
  return join(dataDir, 'hooks', 'ended-sessions.jsonl');
}

export function recordSessionEnded(dataDir: string, ended: EndedSession): void {
  ensureOwnDataDir(dataDir, 'hooks');
  appendOwnFile(endedSessionsPath(dataDir), `${JSON.stringify(ended)}\n`);
}

/** Pure: the store's text → session id → its (latest) end. Lines that do not parse are skipped. */
export function parseEndedSessions(text: string): Map<string, EndedSession> {
  const out = new Map<string, EndedSession>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const v = JSON.parse(line) as Partial<EndedSession>;
      if (typeof v.sessionId === 'string' && v.sessionId !== '' && typeof v.endedAt === 'number') {
        const prev = out.get(v.sessionId);
        if (!prev || prev.endedAt < v.endedAt) {
          const reason =
            typeof v.reason === 'string' && v.reason !== '' ? { reason: v.reason.slice(0, 64) } : {};
          out.set(v.sessionId, {
            agent: String(v.agent ?? ''),
            sessionId: v.sessionId,
            endedAt: v.endedAt,
            ...reason,
          });
        }
      }
    } catch {
      // A torn or foreign line: skip it, keep the rest.
    }
  }
  return out;
}

/** A line is about 120 bytes: room for half a million ended sessions. */
const ENDED_SESSIONS_MAX_BYTES = 64 * 1024 * 1024;

/** The ended sessions recorded; none when the file is absent or cannot be read (a flag is decoration). */
export function loadEndedSessions(dataDir: string): Map<string, EndedSession> {
  const file = readUntrustedFile(endedSessionsPath(dataDir), { maxBytes: ENDED_SESSIONS_MAX_BYTES });
  return isRefusal(file) ? new Map() : parseEndedSessions(file.bytes.toString('utf8'));
}
