import {
  AGENT_NAMES,
  AGENT_TABLE,
  markersMeaning,
  SESSION_MEANINGS,
  type BuiltinAgentName,
} from '../../../shared/agents';
import type { AgentSignatureConfig, Settings } from '../../../shared/model';
import { AgentMatcher } from './agent-matcher';

/** The signature of a built-in agent, in the shape users write theirs, from shared/agents.ts. */
function signatureOf(name: BuiltinAgentName): AgentSignatureConfig {
  const entry = AGENT_TABLE[name];
  const pidEnv = markersMeaning(name, 'pid', 'pid-session')[0];
  const toolCallEnv = markersMeaning(name, 'tool-call-id')[0];
  return {
    name,
    comm: [...entry.comm],
    commandPatterns: [...entry.commandPatterns],
    envMarkers: markersMeaning(name, 'tool-call', 'agent', 'session', 'tool-call-id'),
    sessionEnv: markersMeaning(name, ...SESSION_MEANINGS),
    toolCallPatterns: [...entry.toolCallPatterns],
    ...(pidEnv ? { pidEnv } : {}),
    ...(toolCallEnv ? { toolCallEnv } : {}),
  };
}

/**
 * Built-in agent signatures, derived from the agent table (shared/agents.ts). `comm` names are matched
 * against the executable name, argv[0]'s basename, and — for interpreters (node, bun, deno, python) — the
 * basename of the script they run. `commandPatterns` are regular expressions over the whole command line.
 * `envMarkers` are the variables whose presence attributes a process to the agent.
 */
export const BUILTIN_SIGNATURES: readonly AgentSignatureConfig[] = AGENT_NAMES.map(signatureOf);

/**
 * Variables read with the markers, not for attribution but for provenance: where the agent keeps its
 * transcripts and MCP configuration (its `files` markers: Claude Code's `CLAUDE_CONFIG_DIR`, Codex's
 * `CODEX_HOME`, Qwen Code's `QWEN_CODE_PROJECT_DIR`), and `HOME`.
 */
export const PROVENANCE_ENV: readonly string[] = [
  ...AGENT_NAMES.flatMap((name) => markersMeaning(name, 'files')),
  'HOME',
];

/** The matcher for these settings: the user's signatures first, then the built-in ones. */
export function matcherFor(settings: Settings): AgentMatcher {
  return new AgentMatcher([...settings.agents, ...BUILTIN_SIGNATURES], PROVENANCE_ENV);
}
