import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The session a running Claude Code process works on, from `<config dir>/sessions/<pid>.json`, which
 * Claude Code writes at start-up as `{pid, sessionId, cwd, startedAt}` and removes when it exits
 * (shared/AGENTS.md). The file can lag behind `/clear` (a new session id in the same process), so it
 * only links a session to its agent when nothing better does. null when absent or not of that shape,
 * or when it names another pid (a stale file of a reused pid).
 */
export function readClaudeSessionFile(configDir: string, pid: number): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(join(configDir, 'sessions', `${pid}.json`), 'utf8'));
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { pid: filePid, sessionId } = parsed as { pid?: unknown; sessionId?: unknown };
  if (filePid !== undefined && filePid !== pid) return null;
  return typeof sessionId === 'string' && sessionId.length > 0 ? sessionId : null;
}
