import type { ListedSession } from '../analysis/listed-sessions';
import { pidOf, text, type SessionListReader } from './session-list-reader';

/**
 * Claude Code's own list: `claude agents --json` "Print active sessions (interactive and background) as a
 * JSON array and exit", `--all` "also include completed background sessions" (2.1.332, recorded in
 * test/fixtures/claude/2.1.332/bg/agents-*.json): `[{pid?, id, cwd, kind, startedAt, sessionId, name,
 * status?, state}]`; `pid` and `status` (`busy`, `idle`) appear once the session's process runs; a session
 * `claude stop` ended stays in `--all` with `state: "stopped"` (its bundle's other ends: `done`, `failed`,
 * `crashed`). Run with the agent's own binary (`/proc/<pid>/exe`).
 */
const ENDED_STATES = new Set(['stopped', 'done', 'failed', 'crashed']);

export const CLAUDE_CODE_SESSIONS: SessionListReader = {
  agent: 'claude-code',
  command: ({ exe }) => (isClaudeBinary(exe) ? { file: exe, args: ['agents', '--json', '--all'] } : null),
  envKeys: ['CLAUDE_CONFIG_DIR', 'CLAUDE_CODE_TMPDIR'],
  quietEnv: {
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  },
  minIntervalMs: 5_000,
  timeoutMs: 5_000,
  parse(stdout) {
    let rows: unknown;
    try {
      rows = JSON.parse(stdout);
    } catch {
      return { problem: `not JSON: ${JSON.stringify(stdout.slice(0, 80))}` };
    }
    if (!Array.isArray(rows)) return { problem: 'not a JSON array' };
    const sessions: ListedSession[] = [];
    for (const row of rows as Array<Record<string, unknown> | null>) {
      const sessionId = row && typeof row === 'object' ? text(row.sessionId) : null;
      if (!row || !sessionId) return { problem: 'an entry without a sessionId' };
      sessions.push({
        agent: 'claude-code',
        sessionId,
        pid: pidOf(row.pid),
        name: text(row.name),
        kind: text(row.kind),
        status: text(row.status),
        state: text(row.state),
        ended: ENDED_STATES.has(String(row.state)),
      });
    }
    return sessions;
  },
};

/** Claude Code's own executable (npm's `…/claude-code/bin/claude.exe`, the installer's `…/claude/versions/<v>`). */
function isClaudeBinary(exe: string): boolean {
  return /\/claude-code\/bin\/claude(\.exe)?$|\/claude\/versions\/\d[^/]*$/.test(exe);
}
