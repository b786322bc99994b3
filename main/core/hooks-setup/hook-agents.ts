import { join } from 'node:path';
import {
  AGENT_NAMES,
  AGENT_TABLE,
  HOOK_AGENT_NAMES,
  markersMeaning,
  SESSION_MEANINGS,
  type HookAgentName,
  type HookEventSpec,
} from '../../../shared/agents';
import { isSecretEnv } from '../analysis/secret-env';

// The agents Corral can install hooks for, and where each one reads them: their entries in the agent
// table (shared/agents.ts). Where each fact comes from and what was verified with the real CLIs:
// docs/agents-observed.md ("Hooks").
export type { HookEventSpec, HookRole } from '../../../shared/agents';
export const HOOK_AGENTS = HOOK_AGENT_NAMES;
export type HookAgent = HookAgentName;

export interface HookAgentSpec {
  agent: HookAgent;
  /** Human name for messages. */
  label: string;
  /** Whether the agent's settings parser accepts comments (JSONC). */
  allowsComments: boolean;
  events: readonly HookEventSpec[];
  /**
   * Environment markers whose value is the session id the hook payload carries: on its tool calls'
   * processes, or only on its hooks' (Gemini CLI's GEMINI_SESSION_ID).
   */
  sessionMarkers: readonly string[];
  /** Whether its tool calls' processes carry a session marker (else only `agentMarkers` tie them to it). */
  toolCallsCarrySession: boolean;
  /** Markers that only say "started by this agent's tool call", used when no session marker is set. */
  agentMarkers: readonly string[];
  /** AgentHooks.httpEvents; absent: every event runs the command. */
  httpEvents?: readonly string[];
  /** AgentHooks.commandEvents; absent: every event runs the command. */
  commandEvents?: readonly string[];
  /** AgentHooks.viaClient. */
  viaClient: boolean;
  settingsPath(env: Readonly<Record<string, string | undefined>>, home: string): string;
}

function specOf(agent: HookAgent): HookAgentSpec {
  const { label, hooks } = AGENT_TABLE[agent];
  const { dirEnv, dir, file } = hooks.settings;
  return {
    agent,
    label,
    allowsComments: hooks.allowsComments,
    events: hooks.events,
    sessionMarkers: markersMeaning(agent, ...SESSION_MEANINGS),
    toolCallsCarrySession: markersMeaning(agent, 'session').length > 0,
    agentMarkers: markersMeaning(agent, 'tool-call'),
    ...(hooks.httpEvents ? { httpEvents: hooks.httpEvents } : {}),
    ...(hooks.commandEvents ? { commandEvents: hooks.commandEvents } : {}),
    viaClient: hooks.viaClient,
    settingsPath: (env, home) => join((dirEnv && env[dirEnv]?.trim()) || join(home, dir), file),
  };
}

export const HOOK_AGENT_SPECS = Object.fromEntries(HOOK_AGENTS.map((a) => [a, specOf(a)])) as Record<
  HookAgent,
  HookAgentSpec
>;

export function isHookAgent(name: string): name is HookAgent {
  return (HOOK_AGENTS as readonly string[]).includes(name);
}

/** The agents' own pid markers (CLAUDE_PID…): a recorded session end is not believed while that agent runs. */
export const AGENT_PID_MARKERS: readonly string[] = AGENT_NAMES.flatMap((a) =>
  markersMeaning(a, 'pid', 'pid-session'),
);

/** Every environment key a hook's scan needs from the sampler. */
export const HOOK_MARKER_KEYS: ReadonlySet<string> = new Set(
  [
    ...Object.values(HOOK_AGENT_SPECS).flatMap((s) => [...s.sessionMarkers, ...s.agentMarkers]),
    ...AGENT_PID_MARKERS,
  ].filter((k) => !isSecretEnv(k)),
);
