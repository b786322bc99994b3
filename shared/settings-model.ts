// The user's settings, signatures and policies as they cross a process boundary.
// Field names here are a public contract: extend, never rename.

export interface AgentSignatureConfig {
  name: string;
  /** Executable names (comm) of the agent's main process. */
  comm?: string[];
  /** Regular expressions matched against the full command line of the agent's main process. */
  commandPatterns?: string[];
  /** Environment variables whose presence marks a tool-call descendant. */
  envMarkers?: string[];
  /** Environment variable holding the agent's main PID, if the agent sets one. */
  pidEnv?: string;
  /** Regular expressions that mark a tool-call shell's command line. */
  toolCallPatterns?: string[];
  /** Environment variables holding the agent's session id, first present wins. */
  sessionEnv?: string[];
  /** Environment variable holding the id of the tool call a process came from (Codex). */
  toolCallEnv?: string;
}

/** What a policy rule looks at; every field given must hold. */
export interface PolicyMatch {
  /** Agent names (any of them). */
  agents?: string[];
  /** Group flags (all of them). */
  flags?: string[];
  minAgeSeconds?: number;
  minCpuSeconds?: number;
  minMemoryMegabytes?: number;
  /** The session that started the group has ended (a hook said so, or its agent is gone). */
  sessionEnded?: boolean;
  /** Regular expressions, any of which matches any member's command line. */
  commandPatterns?: string[];
  /** Ports, any of which a member listens on. */
  ports?: number[];
}

export type PolicyAction = 'notify' | 'stop';

export interface PolicyRule {
  name: string;
  match: PolicyMatch;
  action: PolicyAction;
  /** Grace between SIGTERM and SIGKILL for this rule's stops (default: teardown.graceMs). */
  graceMs?: number;
  /** false keeps the rule in the file without applying it (default true). */
  enabled?: boolean;
}

/** observe: record what rules would do, never signal. enforce: act. */
export type PolicyMode = 'observe' | 'enforce';

export interface Settings {
  pollIntervalMs: number;
  /**
   * The poll interval while nothing moves: agents' processes neither born nor exiting, every agent
   * marking its tool calls, no view open (main/core/monitor/schedule/watch-pace.ts). Never shorter than
   * pollIntervalMs, so setting it at or below that keeps every poll at pollIntervalMs. Absent means
   * DEFAULT_QUIET_POLL_INTERVAL_MS.
   */
  quietPollIntervalMs?: number;
  runaway: { cpuPercent: number; windowSeconds: number };
  memory: { groupMegabytes: number; windowSeconds: number };
  /** Spawn storms (flag `spawn-storm`). Absent means the defaults (DEFAULT_SPAWN_STORM). */
  spawnStorm?: { birthsPerMinute: number; repeatsPerMinute: number; windowSeconds: number; members: number };
  policyMode: PolicyMode;
  policies: PolicyRule[];
  teardown: { graceMs: number };
  notifications: { enabled: boolean; pausedUntil: number | null };
  agents: AgentSignatureConfig[];
  /** Where provenance may be read from. Absent means the defaults (everything on). */
  provenance?: { transcripts: boolean };
  /** The desktop app's own updates (signed, packaged builds only). Absent means on. */
  updates?: { enabled: boolean };
}
