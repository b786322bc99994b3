// Agent hooks as the front ends see them: which agents have Corral's hooks, and what installing changes.

import type { HookAgentName } from './agents';
/** The agents with hooks: those whose entry in shared/agents.ts (the one table) has a hook spec. */
export { HOOK_AGENT_NAMES, type HookAgentName } from './agents';

export interface HookAgentStatus {
  agent: HookAgentName;
  /** Human name, e.g. "Claude Code". */
  label: string;
  /** The settings file Corral's hooks go in. */
  path: string;
  /** 'installed': every event; 'partial': some; 'absent': none (or no file); 'invalid': unreadable. */
  state: 'installed' | 'partial' | 'absent' | 'invalid';
  /** Event → the command Corral's hook runs there. */
  events: Record<string, string>;
  error?: string;
  /**
   * Set when an installed hook's command names a program or script that no longer exists (a moved
   * checkout, an uninstalled Node): what is missing. `hooks install` rewrites the command.
   */
  missingCommand?: string;
  /**
   * Set when its installed http hooks send a token the hook endpoint no longer holds (the endpoint was
   * made again since): the running Corral refuses them. `hooks install` writes the current token.
   */
  staleToken?: boolean;
  /** Corral has seen this agent run on this machine (now, or in its incident history). */
  seen: boolean;
  /** The agent's own settings directory exists (it was installed and run here). Absent: not known. */
  installed?: boolean;
}

export interface HooksOverview {
  agents: HookAgentStatus[];
  /** The command line the hooks would run (`<…> hook <agent> <event>`); null when Corral cannot tell. */
  command: string | null;
  /**
   * The command line that runs the corral CLI on this machine (`corral`, its absolute path, or Node
   * and the CLI's script), for the `hooks install` the page shows; null or absent: none known.
   */
  cliCommand?: string | null;
  /** Why `command` is null, and what to do about it. */
  commandProblem?: string;
}

export interface HooksInstallRequest {
  agent: HookAgentName;
  /** true: only say what would change. Required, so nothing is ever installed by default. */
  dryRun: boolean;
}

export interface HooksChangeView {
  agent: HookAgentName;
  path: string;
  /** False when the file already was as wanted (nothing written). */
  changed: boolean;
  /** The line diff of the change ('' when none). */
  diff: string;
  /** Where the previous file was copied before writing; null when nothing was written or no file existed. */
  backup: string | null;
  /** Set when the file was left untouched (unreadable or invalid settings, or no hook command). */
  error?: string;
  /** What the user should know about what was installed (http hooks' transport; no perl for the client). */
  notice?: string;
}
