import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The session a running Claude Code process works on, from `<config dir>/sessions/<pid>.json`, which
 * Claude Code writes at start-up and removes when it exits. Observed with 2.1.197: `{pid, sessionId,
 * cwd, startedAt, procStart, version, …}`, `procStart` being the process's start time in clock ticks
 * (field 22 of /proc/<pid>/stat). The file can lag behind `/clear` (a new session id in the same
 * process), so it only links a session to its agent when nothing better does. null when absent or not
 * of that shape, or when it belongs to another process (another pid, or another start time: a stale
 * file of a reused pid). `startTicks`: the process's start in ticks where the platform has them.
 */
export function readClaudeSessionFile(
  configDir: string,
  pid: number,
  startTicks: number | null,
): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(join(configDir, 'sessions', `${pid}.json`), 'utf8'));
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
