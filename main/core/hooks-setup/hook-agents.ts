import { join } from 'node:path';
import { HOOK_AGENT_NAMES, type HookAgentName } from '../../../shared/hooks';
import { isSecretEnv } from '../analysis/secret-env';
import { BUILTIN_SIGNATURES } from '../analysis/signatures';

/**
 * The agents Corral can install hooks for, and where each one reads them.
 *
 * Sources (read from each agent's own documentation through the search tool, November 2026):
 * - Claude Code: docs.claude.com "Hooks reference": `settings.json` in the config dir
 *   (`CLAUDE_CONFIG_DIR`, else `~/.claude`), `hooks.<Event>[] = {matcher, hooks: [{type:
 *   "command", command}]}`; tool events match the tool name (`Bash`); `SessionEnd` takes no matcher;
 *   PostToolUse may print `{"hookSpecificOutput": {"hookEventName": "PostToolUse",
 *   "additionalContext": "…"}}`. VERIFIED against the real CLI 2.1.197 here
 *   (test/hooks/claude-code-e2e.test.ts): the payload fields, the Bash matcher, and that
 *   additionalContext reaches the model's next request (as a `<system-reminder>` text block beside
 *   the tool_result); again with 2.1.332 (payloads in test/fixtures/claude/2.1.332/). Observed payloads from 2.1.197: PreToolUse `{session_id, transcript_path, cwd,
 *   prompt_id, permission_mode, effort, hook_event_name, tool_name: "Bash", tool_input: {command,
 *   description}, tool_use_id}`; PostToolUse adds `tool_response` and `duration_ms`; SessionEnd has
 *   `reason`. A Bash call that exits non-zero sends PostToolUseFailure, not PostToolUse (2.1.332), with the
 *   output in `error` and no `tool_response`; its additionalContext reaches the model too.
 *   `session_id` equals the `CLAUDE_CODE_SESSION_ID` the tool calls' processes carry, and
 *   the hook processes carry it too (so the hook excludes itself and its launchers).
 * - Codex CLI: developers.openai.com/codex/hooks: hooks in `hooks.json` next to the active config
 *   layer (`~/.codex/hooks.json`, `CODEX_HOME` when set), same event → matcher group → handlers shape,
 *   `PreToolUse`/`PostToolUse` match `Bash`, `SessionEnd` for the main thread. Hooks are on by
 *   default since 0.124 (`[features] hooks`, alias `codex_hooks`); unmanaged hooks must be trusted
 *   once in `/hooks` before they run. VERIFIED with the real Codex 0.171.0
 *   (test/agents/codex-hooks-e2e.test.ts, `codex exec --dangerously-bypass-hook-trust`).
 * - Gemini CLI: geminicli.com/docs/hooks/reference: `settings.json` (`~/.gemini/settings.json`)
 *   `hooks.<Event>[] = {matcher, hooks: [{type: "command", command}]}`, events `BeforeTool`,
 *   `AfterTool` (matcher: a tool-name regex, the shell tool is `run_shell_command`), `SessionEnd`;
 *   stdout must be only the final JSON. Its settings files accept comments. VERIFIED with the real
 *   Gemini CLI 0.61.0 (test/agents/gemini-cli-e2e.test.ts; payloads in test/fixtures/gemini/): the
 *   payload has `session_id` but no `tool_use_id`, and the note reaches the model.
 * - Qwen Code: qwenlm.github.io/qwen-code-docs …/users/hooks: `settings.json` (`~/.qwen/`) with the
 *   same shape and Claude Code's event names; the shell tool is `run_shell_command` (a Gemini CLI
 *   fork). Its settings files accept comments. VERIFIED with the real Qwen Code 0.24.4
 *   (test/agents/qwen-code-e2e.test.ts; payloads in test/fixtures/qwen/): `session_id` equals
 *   QWEN_CODE_SESSION_ID, `tool_use_id` pairs before and after, and the note reaches the model.
 */
export const HOOK_AGENTS = HOOK_AGENT_NAMES;
export type HookAgent = HookAgentName;

export type HookRole = 'before-tool' | 'after-tool' | 'session-end' | 'turn-end';

export interface HookEventSpec {
  /** The agent's own event name, e.g. `PostToolUse` or `AfterTool`. */
  event: string;
  role: HookRole;
  /** Tool-name matcher for tool events; none for session events. */
  matcher?: string;
}

export interface HookAgentSpec {
  agent: HookAgent;
  /** Human name for messages. */
  label: string;
  /** Whether the agent's settings parser accepts comments (JSONC). */
  allowsComments: boolean;
  events: readonly HookEventSpec[];
  /** Environment markers whose value is the session id the hook payload carries. */
  sessionMarkers: readonly string[];
  /** Markers that only say "started by this agent", used when no session marker is set. */
  agentMarkers: readonly string[];
  /**
   * The events installed as http hooks answered by the running Corral (hook-server.ts), for an agent
   * that posts hooks itself; its other events get no hook at all. Absent: every event runs the command.
   */
  httpEvents?: readonly string[];
  /**
   * Whether its command hooks run the bash client that asks the running Corral first
   * (hook-client-script.ts). Verified with the real Codex; Qwen Code 0.24.4 did not finish a turn with
   * it (not yet understood), so Qwen Code and its parent Gemini CLI keep the one-shot command.
   */
  viaClient?: boolean;
  settingsPath(env: Readonly<Record<string, string | undefined>>, home: string): string;
}

export const HOOK_AGENT_SPECS: Record<HookAgent, HookAgentSpec> = {
  'claude-code': {
    agent: 'claude-code',
    label: 'Claude Code',
    allowsComments: false,
    events: [
      { event: 'PreToolUse', role: 'before-tool', matcher: 'Bash' },
      { event: 'PostToolUse', role: 'after-tool', matcher: 'Bash' },
      // A command that exits non-zero (a server failing with EADDRINUSE) ends in this event instead.
      { event: 'PostToolUseFailure', role: 'after-tool', matcher: 'Bash' },
      { event: 'SessionEnd', role: 'session-end' },
      // Its payload lists the tasks the session keeps running (`background_tasks[]`, 2.1.332).
      { event: 'Stop', role: 'turn-end' },
    ],
    sessionMarkers: ['CLAUDE_CODE_SESSION_ID'],
    agentMarkers: ['CLAUDECODE'],
    // Chosen with `corral hooks install --http`: PostToolUse carries duration_ms, so the call's start
    // needs no PreToolUse (hook-answer.ts). By default the client asks the running Corral and falls
    // back to the one-shot hook, so a user with no Corral service running still gets the note.
    httpEvents: ['PostToolUse', 'PostToolUseFailure', 'SessionEnd', 'Stop'],
    viaClient: true,
    settingsPath: (env, home) =>
      join(env.CLAUDE_CONFIG_DIR?.trim() || join(home, '.claude'), 'settings.json'),
  },
  codex: {
    agent: 'codex',
    label: 'Codex CLI',
    allowsComments: false,
    events: [
      { event: 'PreToolUse', role: 'before-tool', matcher: 'Bash' },
      { event: 'PostToolUse', role: 'after-tool', matcher: 'Bash' },
      { event: 'SessionEnd', role: 'session-end' },
    ],
    sessionMarkers: ['CODEX_THREAD_ID', 'CODEX_SESSION_ID'],
    agentMarkers: ['CODEX_CI', 'CODEX_MANAGED_BY_NPM'],
    viaClient: true,
    settingsPath: (env, home) => join(env.CODEX_HOME?.trim() || join(home, '.codex'), 'hooks.json'),
  },
  'gemini-cli': {
    agent: 'gemini-cli',
    label: 'Gemini CLI',
    allowsComments: true,
    events: [
      { event: 'BeforeTool', role: 'before-tool', matcher: 'run_shell_command' },
      { event: 'AfterTool', role: 'after-tool', matcher: 'run_shell_command' },
      { event: 'SessionEnd', role: 'session-end' },
    ],
    sessionMarkers: [],
    agentMarkers: ['GEMINI_CLI'],
    settingsPath: (_env, home) => join(home, '.gemini', 'settings.json'),
  },
  'qwen-code': {
    agent: 'qwen-code',
    label: 'Qwen Code',
    allowsComments: true,
    events: [
      { event: 'PreToolUse', role: 'before-tool', matcher: 'run_shell_command' },
      { event: 'PostToolUse', role: 'after-tool', matcher: 'run_shell_command' },
      { event: 'SessionEnd', role: 'session-end' },
    ],
    sessionMarkers: ['QWEN_CODE_SESSION_ID'],
    agentMarkers: ['QWEN_CODE'],
    settingsPath: (_env, home) => join(home, '.qwen', 'settings.json'),
  },
};

export function isHookAgent(name: string): name is HookAgent {
  return (HOOK_AGENTS as readonly string[]).includes(name);
}

/** Every environment key a hook's scan needs from the sampler. */
export const HOOK_MARKER_KEYS: ReadonlySet<string> = new Set(
  [
    ...Object.values(HOOK_AGENT_SPECS).flatMap((s) => [...s.sessionMarkers, ...s.agentMarkers]),
    // The agent's own pid (CLAUDE_PID…): a recorded session end is not believed while it runs.
    ...BUILTIN_SIGNATURES.flatMap((s) => (s.pidEnv ? [s.pidEnv] : [])),
  ].filter((k) => !isSecretEnv(k)),
);
