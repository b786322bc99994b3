import { join } from 'node:path';
import { isNotFound, isRefusal, readUntrustedFile, type NoteRefusal } from '../files/untrusted-file';

/** Claude Code's session files are a few hundred bytes. */
const SESSION_FILE_MAX_BYTES = 64 * 1024;

/**
 * The session a running Claude Code process works on, from `<config dir>/sessions/<pid>.json`, which
 * Claude Code writes at start-up and removes when it exits. Observed with 2.1.197: `{pid, sessionId,
 * cwd, startedAt, procStart, version, …}`, `procStart` being the process's start time in clock ticks
 * (field 22 of /proc/<pid>/stat). The file can lag behind `/clear` (a new session id in the same
 * process), so it only links a session to its agent when nothing better does. null when absent or not
 * of that shape, or when it belongs to another process (another pid, or another start time: a stale
 * file of a reused pid), or is not a regular file of the process's owner. `startTicks`: the process's
 * start in ticks where the platform has them.
 */
export function readClaudeSessionFile(
  configDir: string,
  pid: number,
  startTicks: number | null,
  { owner, note }: { owner?: number; note?: NoteRefusal } = {},
): string | null {
  const path = join(configDir, 'sessions', `${pid}.json`);
  const file = readUntrustedFile(path, { maxBytes: SESSION_FILE_MAX_BYTES, owner });
  if (isRefusal(file)) {
    if (!isNotFound(file)) note?.(path, file);
    return null;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(file.bytes.toString('utf8'));
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const {
    pid: filePid,
    sessionId,
    procStart,
  } = parsed as {
    pid?: unknown;
    sessionId?: unknown;
    procStart?: unknown;
  };
  if (filePid !== undefined && filePid !== pid) return null;
  if (
    startTicks !== null &&
    typeof procStart === 'string' &&
    /^\d+$/.test(procStart) &&
    Number(procStart) !== startTicks
  )
    return null;
  return typeof sessionId === 'string' && sessionId.length > 0 ? sessionId : null;
}
