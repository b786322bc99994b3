import type { BuiltinAgentName } from '../../../shared/agents';
import type { ListedSession } from '../analysis/listed-sessions';

/** The agent process a list is read for: its executable and command line (the CLI to ask). */
export interface AgentProcess {
  exe: string;
  argv: readonly string[];
}

/**
 * How one agent's own list of its sessions is read: the command to run (the agent's own CLI, as its
 * process was started), how often at most, and how its output is parsed. A parse that does not find the
 * format it knows says what it found instead, once (a note, never a failure).
 */
export interface SessionListReader {
  /** The agent, as the one agent table (shared/agents.ts) names it. */
  agent: BuiltinAgentName;
  /** The command that prints the list, from the agent's running process; null when it cannot be told. */
  command(proc: AgentProcess): { file: string; args: string[] } | null;
  /** Environment variables of the agent's process that locate its list (besides HOME, PATH, TMPDIR…). */
  envKeys: readonly string[];
  /** Fixed environment for the command (no update checks, no traffic). */
  quietEnv: Readonly<Record<string, string>>;
  /** At most one read this often while the agent runs, ms. */
  minIntervalMs: number;
  /** A read still running after this long is killed (its own process group) and noted, ms. */
  timeoutMs: number;
  parse(stdout: string): ListedSession[] | { problem: string };
}

/** A string field, or null when absent or not a non-empty string. */
export function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** A positive integer pid, or null. */
export function pidOf(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value > 1 ? value : null;
}
