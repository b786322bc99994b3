import type { ListedSession } from '../analysis/listed-sessions';
import { pidOf, text, type SessionListReader } from './session-list-reader';

/**
 * Qwen Code's own list: `qwen sessions ps --json` "List Qwen Code sessions running right now", as JSON
 * Lines (0.24.4): one registry record a line, `{schemaVersion, pid, procStart, pidNs, sessionId, cwd, name,
 * startedAt, qwenVersion, kind}` (its bundle's `session-registry.ts`; the IPC token is left out); nothing
 * with none running. Only interactive (`tui`) and ACP sessions register; `-p` runs do not. Its CLI costs
 * about 1.4 s of CPU to start, so it is asked at most once a minute. Run as the agent was: its Node, its
 * script.
 */
export const QWEN_CODE_SESSIONS: SessionListReader = {
  agent: 'qwen-code',
  command: ({ exe, argv }) => {
    // Only Qwen Code's own entry script (`…/.bin/qwen`, `…/@qwen-code/qwen-code/cli.js`) is run again.
    const script = argv.slice(1).find((a) => !a.startsWith('-'));
    return script && /qwen[^/]*\/(cli\.js|qwen)$|\/qwen$/.test(script)
      ? { file: exe, args: [script, 'sessions', 'ps', '--json'] }
      : null;
  },
  envKeys: ['QWEN_HOME'],
  quietEnv: { QWEN_CODE_NO_RELAUNCH: 'true', NO_COLOR: '1' },
  minIntervalMs: 60_000,
  timeoutMs: 15_000,
  parse(stdout) {
    const sessions: ListedSession[] = [];
    for (const line of stdout.split('\n')) {
      if (line.trim() === '') continue;
      let row: unknown;
      try {
        row = JSON.parse(line);
      } catch {
        return { problem: `a line that is not JSON: ${JSON.stringify(line.slice(0, 80))}` };
      }
      const r = row as Record<string, unknown> | null;
      const sessionId = r && typeof r === 'object' ? text(r.sessionId) : null;
      if (!r || !sessionId) return { problem: 'a record without a sessionId' };
      sessions.push({
        agent: 'qwen-code',
        sessionId,
        pid: pidOf(r.pid),
        name: text(r.name),
        kind: text(r.kind),
        status: null,
        state: null,
        ended: false,
      });
    }
    return sessions;
  },
};
