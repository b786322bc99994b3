import type { GroupView } from '../../../shared/model';

// Sessions an agent's SessionEnd hook reported ended (storage/ended-sessions.ts keeps them), and the
// pure decision which groups are their leftovers.

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
  /** The reason its SessionEnd hook gave, where it gave one. */
  reason?: string;
}

export type EndedSessions = ReadonlyMap<string, EndedSession>;

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
    let hit: EndedSession | null = null;
    for (const p of g.processes) {
      const markers = markersOf(p.pid);
      hit = p.state !== 'Z' && markers !== undefined ? endedSessionOf(markers, p.startedAt, ended) : null;
      if (hit) break;
    }
    if (!hit) return g;
    const session =
      g.session && g.session.id === hit.sessionId && hit.reason
        ? { ...g.session, endReason: hit.reason }
        : g.session;
    return { ...g, flags: [...g.flags, 'session-ended'], ...(session !== g.session ? { session } : {}) };
  });
}
