import { CLAUDE_CODE_SESSIONS } from './claude-code';
import { QWEN_CODE_SESSIONS } from './qwen-code';
import type { BuiltinAgentName } from '../../../shared/agents';
import type { SessionListReader } from './session-list-reader';

/**
 * The agents whose own session list Corral reads, by agent name (the signatures' names). What the others
 * offer (docs/agents-observed.md): Codex CLI 0.171.0 only `codex agents`, an interactive command center;
 * Gemini CLI 0.61.0 `--list-sessions`, the project's saved sessions, not whether they run.
 */
export const SESSION_LIST_READERS: ReadonlyMap<BuiltinAgentName, SessionListReader> = new Map(
  [CLAUDE_CODE_SESSIONS, QWEN_CODE_SESSIONS].map((r) => [r.agent, r]),
);
