// The one table of agents: every list of agent names, their labels, the built-in signatures
// (main/core/analysis/signatures.ts), the environment markers the hooks and session ends read, and the
// hook specs (main/core/hooks-setup/hook-agents.ts) derive from it. Data, not code: users add their own
// signatures with the same process fields under `agents` in the config file. What each agent was seen
// doing, and where each hook fact comes from: docs/agents-observed.md and ../shared/AGENTS.md.

/** Every built-in agent, in the order the docs list them. */
export const AGENT_NAMES = [
  'claude-code',
  'codex',
  'gemini-cli',
  'cursor-agent',
  'aider',
  'opencode',
  'qwen-code',
  'copilot',
  'goose',
  'amp',
] as const;
export type BuiltinAgentName = (typeof AGENT_NAMES)[number];

/**
 * What an environment variable an agent sets says about a process that carries it (markers are
 * inherited by every descendant and survive reparenting and setsid: on Linux the strongest signal).
 * - `tool-call`: set for its tool calls; its presence says one of them started the process (the hooks
 *   find a call's leftovers by it).
 * - `agent`: its presence says the agent's, but the agent's own processes carry it too.
 * - `session`: its value is the session id (the one its hook payloads carry); its presence says the agent's.
 * - `session-only`: its value is the session id, read only for a process already attributed (too generic a
 *   name to attribute by, or set for the agent's hooks and not its tool calls).
 * - `pid`: the agent's main process's pid; `pid-session`: that pid, standing for the session too.
 * - `tool-call-id`: the id of the tool call that started the process; its presence says the agent's.
 * - `files`: where the agent keeps its transcripts, session files and MCP configuration (provenance).
 * The first of several session markers present wins.
 */
export type MarkerMeaning =
  'tool-call' | 'agent' | 'session' | 'session-only' | 'pid' | 'pid-session' | 'tool-call-id' | 'files';

/** What a hook event is for Corral. */
export type HookRole = 'before-tool' | 'after-tool' | 'session-end' | 'turn-end';

export interface HookEventSpec {
  /** The agent's own event name, e.g. `PostToolUse` or `AfterTool`. */
  event: string;
  role: HookRole;
  /** Tool-name matcher for tool events; none for session events. */
  matcher?: string;
}

export interface AgentHooks {
  /** The settings file Corral's hooks go in: `<$dirEnv, else ~/dir>/file`. */
  settings: { dirEnv: string | null; dir: string; file: string };
  /** Whether the agent's settings parser accepts comments (JSONC). */
  allowsComments: boolean;
  events: readonly HookEventSpec[];
  /**
   * The events installed as http hooks answered by the running Corral (hook-server.ts), for an agent
   * that posts hooks itself; its other events get no hook at all. null: every event runs the command.
   */
  httpEvents: readonly string[] | null;
  /**
   * The events installed as command hooks (the client below, or the one-shot hook where no client
   * can run); its other events get no hook at all. null: every event. Each hook is a process per tool call,
   * so an event the after-tool hook can do without (a before-tool start it reads from the payload's
   * duration instead, hook-call-start.ts) is not hooked.
   */
  commandEvents: readonly string[] | null;
  /**
   * Whether its command hooks run the hook client that asks the running Corral first (C or perl:
   * hook-client-choice.ts). Verified with the real Codex; Qwen Code 0.24.4 did not finish a turn with
   * it (not yet understood), so Qwen Code and its parent Gemini CLI keep the one-shot command.
   */
  viaClient: boolean;
}

export interface AgentEntry {
  /** Human name, e.g. "Claude Code". */
  label: string;
  /** Executable names of its main process: the exe, argv[0]'s basename, or an interpreter's script. */
  comm: readonly string[];
  /** Regular expressions over its main process's whole command line. */
  commandPatterns: readonly string[];
  /** The environment variables it sets, each once, with what it says (MarkerMeaning). */
  env: Readonly<Record<string, MarkerMeaning>>;
  /** Regular expressions that mark its tool-call shell's command line. */
  toolCallPatterns: readonly string[];
  /** Where and how Corral installs its hooks; null: Corral has none for it. */
  hooks: AgentHooks | null;
}

const BASH_CALLS = (before: string, after: string, matcher: string): HookEventSpec[] => [
  { event: before, role: 'before-tool', matcher },
  { event: after, role: 'after-tool', matcher },
];
const SESSION_END: HookEventSpec = { event: 'SessionEnd', role: 'session-end' };
/** Claude Code's hooked events on either path: its after-tool payloads carry duration_ms, so no PreToolUse. */
const CLAUDE_HOOKED_EVENTS = ['PostToolUse', 'PostToolUseFailure', 'SessionEnd', 'Stop'] as const;

/** The table. `satisfies` refuses an agent missing a field, and an entry for no agent. */
export const AGENT_TABLE = {
  // Observed: Claude Code 2.1.x, a native binary. The native installer's binary is
  // …/.local/share/claude/versions/<version>: its comm is the version.
  'claude-code': {
    label: 'Claude Code',
    comm: ['claude', 'claude.exe'],
    commandPatterns: [
      '/claude-code/bin/claude(\\.exe)?(\\s|$)',
      '/share/claude/versions/[0-9][^/\\s]*(\\s|$)',
    ],
    env: {
      CLAUDECODE: 'tool-call',
      CLAUDE_CODE_SESSION_ID: 'session',
      CLAUDE_CODE_ENTRYPOINT: 'agent',
      CLAUDE_PID: 'pid',
      CLAUDE_CONFIG_DIR: 'files',
    },
    toolCallPatterns: ['\\.claude/shell-snapshots/snapshot-', '/claude-[0-9a-f]+-cwd(\\s|$)'],
    hooks: {
      settings: { dirEnv: 'CLAUDE_CONFIG_DIR', dir: '.claude', file: 'settings.json' },
      allowsComments: false,
      events: [
        ...BASH_CALLS('PreToolUse', 'PostToolUse', 'Bash'),
        // A command that exits non-zero (a server failing with EADDRINUSE) ends in this event instead.
        { event: 'PostToolUseFailure', role: 'after-tool', matcher: 'Bash' },
        SESSION_END,
        // Its payload lists the tasks the session keeps running (`background_tasks[]`, 2.1.332).
        { event: 'Stop', role: 'turn-end' },
      ],
      // PostToolUse and PostToolUseFailure carry duration_ms (2.1.332), so the call's start needs no
      // PreToolUse (hook-call-start.ts), whichever path answers: http hooks, chosen with `corral hooks
      // install --http`, or by default the client, which asks the running Corral and falls back to the
      // one-shot hook, so a user with no Corral service running still gets the note.
      httpEvents: CLAUDE_HOOKED_EVENTS,
      commandEvents: CLAUDE_HOOKED_EVENTS,
      viaClient: true,
    },
  },
  // Observed: Codex CLI 0.171, `node …/bin/codex.js` → native `codex`, and the long-lived
  // `codex app-server --managed-daemon` that parents model tool calls.
  codex: {
    label: 'Codex CLI',
    comm: ['codex', 'codex.js'],
    commandPatterns: ['/\\.codex/packages/.*/bin/codex\\s+app-server'],
    env: {
      CODEX_THREAD_ID: 'session',
      CODEX_SESSION_ID: 'session',
      CODEX_TOOL_CALL_ID: 'tool-call-id',
      CODEX_MANAGED_BY_NPM: 'tool-call',
      CODEX_CI: 'tool-call',
      CODEX_HOME: 'files',
    },
    toolCallPatterns: [],
    hooks: {
      settings: { dirEnv: 'CODEX_HOME', dir: '.codex', file: 'hooks.json' },
      allowsComments: false,
      events: [...BASH_CALLS('PreToolUse', 'PostToolUse', 'Bash'), SESSION_END],
      // Its PostToolUse carries no duration, but its transcript_path does: the model's function call is
      // written there before the command starts (0.171.0; main/hooks/tool-duration.ts), so no PreToolUse.
      httpEvents: null,
      commandEvents: ['PostToolUse', 'SessionEnd'],
      viaClient: true,
    },
  },
  // Observed: Gemini CLI 0.61, `node …/gemini` relaunching itself. Its tool-call shell runs a script
  // that records the call's background jobs. Its tool calls carry no session id; its hooks (and what
  // they start) carry GEMINI_SESSION_ID, the payload's session_id.
  'gemini-cli': {
    label: 'Gemini CLI',
    comm: ['gemini'],
    commandPatterns: [],
    env: { GEMINI_CLI: 'tool-call', GEMINI_CLI_NO_RELAUNCH: 'agent', GEMINI_SESSION_ID: 'session-only' },
    toolCallPatterns: ['_bgpids_file=\\S*/gemini-shell-'],
    hooks: {
      settings: { dirEnv: null, dir: '.gemini', file: 'settings.json' },
      allowsComments: true,
      events: [...BASH_CALLS('BeforeTool', 'AfterTool', 'run_shell_command'), SESSION_END],
      // Its AfterTool carries no duration (0.61.0, test/fixtures/gemini/): BeforeTool stays.
      httpEvents: null,
      commandEvents: null,
      viaClient: true,
    },
  },
  // Not observed here (no package runs on this machine). From public reports: `cursor-agent`, which
  // can leave a `worker-server` behind.
  'cursor-agent': {
    label: 'Cursor Agent',
    comm: ['cursor-agent'],
    commandPatterns: ['/cursor-agent/.*worker-server', '(^|/)cursor-agent(\\s|$)'],
    env: { CURSOR_AGENT: 'agent' },
    toolCallPatterns: [],
    hooks: null,
  },
  // Not observed here: Aider is a Python program started as `aider` (documentation).
  aider: { label: 'Aider', comm: ['aider'], commandPatterns: [], env: {}, toolCallPatterns: [], hooks: null },
  // Observed: OpenCode 1.18, one native binary; markers are set on the main process itself. Its main
  // process's pid is the only per-instance id it exports, so it stands for the session.
  opencode: {
    label: 'OpenCode',
    comm: ['opencode'],
    commandPatterns: [],
    env: { OPENCODE: 'agent', OPENCODE_PID: 'pid-session' },
    toolCallPatterns: [],
    hooks: null,
  },
  // Observed: Qwen Code 0.15 and 0.24, `node …/qwen`, relaunched once or twice.
  'qwen-code': {
    label: 'Qwen Code',
    comm: ['qwen'],
    commandPatterns: [],
    env: {
      QWEN_CODE: 'tool-call',
      QWEN_CODE_NO_RELAUNCH: 'agent',
      QWEN_CODE_SESSION_ID: 'session',
      QWEN_CODE_LAUNCHER_PID: 'pid',
      QWEN_CODE_PROJECT_DIR: 'files',
    },
    toolCallPatterns: [],
    hooks: {
      settings: { dirEnv: null, dir: '.qwen', file: 'settings.json' },
      allowsComments: true,
      events: [...BASH_CALLS('PreToolUse', 'PostToolUse', 'run_shell_command'), SESSION_END],
      // Its PostToolUse carries duration_ms (0.24.4, test/fixtures/qwen/): no PreToolUse, one Node
      // process per call fewer (hook-call-start.ts).
      httpEvents: null,
      commandEvents: ['PostToolUse', 'SessionEnd'],
      viaClient: true,
    },
  },
  // Observed: Copilot CLI 1.0, `node …/copilot` loader → single binary with comm `MainThread`.
  copilot: {
    label: 'Copilot CLI',
    comm: ['copilot'],
    commandPatterns: ['/copilot-(linux|darwin)-(x64|arm64)/copilot(\\s|$)'],
    env: { COPILOT_CLI: 'tool-call', COPILOT_AGENT_SESSION_ID: 'session', COPILOT_LOADER_PID: 'pid' },
    toolCallPatterns: [],
    hooks: null,
  },
  // Not observed here: Block's goose (documentation). Only its agent subcommands, so the unrelated
  // `goose` database-migration tool is not taken for it. AGENT_SESSION_ID, which its documentation names
  // for the commands it runs, is too generic a name to attribute by.
  goose: {
    label: 'Goose',
    comm: [],
    commandPatterns: ['(^|/)goose\\s+(session|run|web|acp)(\\s|$)'],
    env: { AGENT_SESSION_ID: 'session-only' },
    toolCallPatterns: [],
    hooks: null,
  },
  // Not observed here: Sourcegraph's Amp CLI, `amp` (documentation).
  amp: { label: 'Amp', comm: ['amp'], commandPatterns: [], env: {}, toolCallPatterns: [], hooks: null },
} as const satisfies Record<BuiltinAgentName, AgentEntry>;

/** The agents Corral installs hooks for. */
export type HookAgentName = {
  [A in BuiltinAgentName]: (typeof AGENT_TABLE)[A]['hooks'] extends null ? never : A;
}[BuiltinAgentName];
export const HOOK_AGENT_NAMES: readonly HookAgentName[] = AGENT_NAMES.filter(
  (a): a is HookAgentName => AGENT_TABLE[a].hooks !== null,
);

/** An agent's environment variables that mean one of `meanings`, in its table's order. */
export function markersMeaning(agent: BuiltinAgentName, ...meanings: MarkerMeaning[]): string[] {
  const env: Readonly<Record<string, MarkerMeaning>> = AGENT_TABLE[agent].env;
  return Object.keys(env).filter((k) => meanings.includes(env[k]!));
}

/** Whose value is the session id, first present winning. */
export const SESSION_MEANINGS: readonly MarkerMeaning[] = ['session', 'session-only', 'pid-session'];
