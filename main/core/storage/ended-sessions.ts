import { join } from 'node:path';
import type { GroupView } from '../../../shared/model';
import { isRefusal, readUntrustedFile } from '../sampling/untrusted-file';
import { appendOwnFile, ensureOwnDataDir } from './own-data-dir';

/**
 * Sessions an agent told Corral (through its SessionEnd hook) have ended, so their leftovers can be
 * flagged `session-ended`. One JSON line per ended session in `<data dir>/hooks/ended-sessions.jsonl`,
 * appended with O_APPEND in a single write of one short line: concurrent hooks (several agents
 * ending at once) never interleave or lose lines, and no lock is needed. Written only in a data
 * directory of the user's own, never through a link (own-data-dir.ts).
 */

/** Environment markers whose value is an agent session id (the id its hook payloads carry). */
export const SESSION_ID_MARKERS = [
  'CLAUDE_CODE_SESSION_ID',
  'CODEX_THREAD_ID',
  'CODEX_SESSION_ID',
  'QWEN_CODE_SESSION_ID',
] as const;

export interface EndedSession {
  agent: string;
  sessionId: string;
  /** When the session ended, ms since epoch. */
  endedAt: number;
}

export type EndedSessions = ReadonlyMap<string, EndedSession>;

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
          out.set(v.sessionId, { agent: String(v.agent ?? ''), sessionId: v.sessionId, endedAt: v.endedAt });
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

/**
 * Pure: the ended session a process belongs to, or null. A process started after its session's end
 * (a resumed session reuses the id) is not a leftover of the ended one; one second of slack covers
 * the start-time rounding of /proc (boot time has whole-second resolution).
 */
export function endedSessionOf(
  markers: Readonly<Record<string, string>>,
  startedAt: number,
  ended: EndedSessions,
): EndedSession | null {
  if (ended.size === 0) return null;
  for (const key of SESSION_ID_MARKERS) {
    const id = markers[key];
    const end = id ? ended.get(id) : undefined;
    if (end && startedAt <= end.endedAt + 1000) return end;
  }
  return null;
}

/**
 * Pure: the groups with `session-ended` added where a live member belongs to an ended session.
 * `markersOf(pid)` gives a member's environment markers (from the same sample the groups came from).
 * This is the function the long-running monitor calls too.
 */
export function flagSessionEnded(
  groups: readonly GroupView[],
  markersOf: (pid: number) => Readonly<Record<string, string>> | undefined,
  ended: EndedSessions,
): GroupView[] {
  if (ended.size === 0) return [...groups];
  return groups.map((g) => {
    if (g.flags.includes('session-ended')) return g;
    const hit = g.processes.some((p) => {
      const markers = markersOf(p.pid);
      return p.state !== 'Z' && markers !== undefined && endedSessionOf(markers, p.startedAt, ended) !== null;
    });
    return hit ? { ...g, flags: [...g.flags, 'session-ended'] } : g;
  });
}
