import type { AgentSignatureConfig, Settings } from '../../../shared/model';
import { AgentMatcher } from './agent-matcher';

/**
 * Built-in agent signatures. Data, not code: users add their own with the same shape under `agents`
 * in the config file.
 *
 * `comm` names are matched against the executable name, argv[0]'s basename, and — for interpreters
 * (node, bun, deno, python) — the basename of the script they run. `commandPatterns` are regular
 * expressions over the whole command line. `envMarkers` are the variables an agent sets for its tool
 * calls; they are inherited by every descendant and survive reparenting and setsid, so on Linux they
 * are the strongest attribution signal.
 */
export const BUILTIN_SIGNATURES: readonly AgentSignatureConfig[] = [
  // Observed (shared/AGENTS.md): Claude Code 2.1.x, a native binary.
  {
    name: 'claude-code',
    comm: ['claude', 'claude.exe'],
    // The native installer's binary is …/.local/share/claude/versions/<version>: its comm is the version.
    commandPatterns: [
      '/claude-code/bin/claude(\\.exe)?(\\s|$)',
      '/share/claude/versions/[0-9][^/\\s]*(\\s|$)',
    ],
    envMarkers: ['CLAUDECODE', 'CLAUDE_CODE_SESSION_ID', 'CLAUDE_CODE_ENTRYPOINT'],
    pidEnv: 'CLAUDE_PID',
    sessionEnv: ['CLAUDE_CODE_SESSION_ID'],
    toolCallPatterns: ['\\.claude/shell-snapshots/snapshot-', '/claude-[0-9a-f]+-cwd(\\s|$)'],
  },
  // Observed: Codex CLI 0.171, `node …/bin/codex.js` → native `codex`, and the long-lived
  // `codex app-server --managed-daemon` that parents model tool calls.
  {
    name: 'codex',
    comm: ['codex', 'codex.js'],
    commandPatterns: ['/\\.codex/packages/.*/bin/codex\\s+app-server'],
    envMarkers: [
      'CODEX_THREAD_ID',
      'CODEX_SESSION_ID',
      'CODEX_TOOL_CALL_ID',
      'CODEX_MANAGED_BY_NPM',
      'CODEX_CI',
    ],
    sessionEnv: ['CODEX_THREAD_ID', 'CODEX_SESSION_ID'],
    toolCallEnv: 'CODEX_TOOL_CALL_ID',
  },
  // Observed: Gemini CLI 0.61, `node …/gemini` relaunching itself.
  // Its tool-call shell runs a script that records the call's background jobs (0.61, observed).
  {
    name: 'gemini-cli',
    comm: ['gemini'],
    envMarkers: ['GEMINI_CLI', 'GEMINI_CLI_NO_RELAUNCH'],
    toolCallPatterns: ['_bgpids_file=\\S*/gemini-shell-'],
  },
  // Not observed here (no package runs on this machine). From public reports: `cursor-agent`, which
  // can leave a `worker-server` behind.
  {
    name: 'cursor-agent',
    comm: ['cursor-agent'],
    commandPatterns: ['/cursor-agent/.*worker-server', '(^|/)cursor-agent(\\s|$)'],
    envMarkers: ['CURSOR_AGENT'],
  },
  // Not observed here: Aider is a Python program started as `aider` (documentation).
  { name: 'aider', comm: ['aider'] },
  // Observed: OpenCode 1.18, one native binary; markers are set on the main process itself.
  // Its main process's pid is the only per-instance id it exports, so it stands for the session.
  {
    name: 'opencode',
    comm: ['opencode'],
    envMarkers: ['OPENCODE'],
    pidEnv: 'OPENCODE_PID',
    sessionEnv: ['OPENCODE_PID'],
  },
  // Observed: Qwen Code 0.15 and 0.24, `node …/qwen`, relaunched once or twice.
  {
    name: 'qwen-code',
    comm: ['qwen'],
    envMarkers: ['QWEN_CODE', 'QWEN_CODE_NO_RELAUNCH', 'QWEN_CODE_SESSION_ID'],
    pidEnv: 'QWEN_CODE_LAUNCHER_PID',
    sessionEnv: ['QWEN_CODE_SESSION_ID'],
  },
  // Observed: Copilot CLI 1.0, `node …/copilot` loader → single binary with comm `MainThread`.
  {
    name: 'copilot',
    comm: ['copilot'],
    commandPatterns: ['/copilot-(linux|darwin)-(x64|arm64)/copilot(\\s|$)'],
    envMarkers: ['COPILOT_CLI', 'COPILOT_AGENT_SESSION_ID'],
    pidEnv: 'COPILOT_LOADER_PID',
    sessionEnv: ['COPILOT_AGENT_SESSION_ID'],
  },
  // Not observed here: Block's goose (documentation). Only its agent subcommands, so the unrelated
  // `goose` database-migration tool is not taken for it. Its documentation names AGENT_SESSION_ID as
  // the variable it sets for the commands it runs; too generic a name to attribute by, so it is only
  // read as the session id of a process already attributed to goose.
  {
    name: 'goose',
    commandPatterns: ['(^|/)goose\\s+(session|run|web|acp)(\\s|$)'],
    sessionEnv: ['AGENT_SESSION_ID'],
  },
  // Not observed here: Sourcegraph's Amp CLI, `amp` (documentation).
  { name: 'amp', comm: ['amp'] },
];

/**
 * Variables read with the markers, not for attribution but for provenance: where the agent keeps its
 * transcripts and MCP configuration (Claude Code's `CLAUDE_CONFIG_DIR`, Codex's `CODEX_HOME`, Qwen Code's
 * `QWEN_CODE_PROJECT_DIR`, and `HOME`).
 */
export const PROVENANCE_ENV: readonly string[] = [
  'CLAUDE_CONFIG_DIR',
  'CODEX_HOME',
  'QWEN_CODE_PROJECT_DIR',
  'HOME',
];

/** The matcher for these settings: the user's signatures first, then the built-in ones. */
export function matcherFor(settings: Settings): AgentMatcher {
  return new AgentMatcher([...settings.agents, ...BUILTIN_SIGNATURES], PROVENANCE_ENV);
}
