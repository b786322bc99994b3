// A Bash tool call's shape, as the hook benchmarks drive it: the hook payload an agent sends, and the
// tool's shell in its own group that leaves `sleep` behind and exits.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { benchEnv, trackGroup } from './populations';
import { waitUntil } from './wait';

/**
 * Has `pid` finished exec'ing `sleep`? The kernel sets a new program's argv and environment together
 * (create_elf_tables), and until then /proc/<pid>/environ reads empty: a hook that reads the leftover
 * mid-exec (a loaded machine may not run the forked child for a while) cannot see its markers. That
 * race is the loaded machine's, not the hook's cost the bench measures.
 */
function hasExecedSleep(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'latin1').startsWith('sleep\0');
  } catch {
    return false;
  }
}

function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

/**
 * Runs the tool's shell with the agent's `markers` in its environment, and resolves once it has exited
 * (its group, tracked for the bench's cleanup, is `pgid`), with the pid of the `sleep` it left behind.
 */
export async function toolShell(
  markers: Record<string, string>,
): Promise<{ pgid: number; leftover: number }> {
  // The leftover's output goes nowhere, or it would hold the pipe (and this wait) open.
  const shell = spawn('/bin/bash', ['-c', 'sleep 600 >/dev/null 2>&1 & echo $!'], {
    detached: true,
    stdio: ['ignore', 'pipe', 'ignore'],
    env: benchEnv(markers),
  });
  trackGroup(shell.pid!);
  let text = '';
  shell.stdout.on('data', (c: Buffer) => (text += c.toString()));
  await new Promise((resolve) => shell.on('close', resolve));
  await waitUntil(`tool shell ${shell.pid} to exit`, () => isGone(shell.pid!));
  const leftover = Number(text.trim());
  await waitUntil(`leftover ${leftover} to exec sleep`, () => hasExecedSleep(leftover), 10_000, 1);
  return { pgid: shell.pid!, leftover };
}

/** Claude Code's hook payload for tool call `i` of `session` (`durationMs`: what PostToolUse reports). */
export function hookPayload(
  session: string,
  i: number,
  event: string,
  durationMs?: number,
  transcriptPath?: string,
): string {
  return JSON.stringify({
    session_id: session,
    tool_use_id: hookCallId(i),
    tool_name: 'Bash',
    tool_input: { command: 'sleep 600 &', description: 'bench' },
    hook_event_name: event,
    ...(durationMs === undefined ? {} : { duration_ms: durationMs }),
    ...(transcriptPath === undefined ? {} : { transcript_path: transcriptPath }),
  });
}

/** The tool call id hookPayload gives call `i`. */
export function hookCallId(i: number): string {
  return `toolu_bench${i}`;
}

/** Throws unless a hook's note (`out`) names the leftover: a hook that saw nothing measured nothing. */
export function expectNote(out: string, leftover: number, what: string): void {
  if (!out.includes(`pid ${leftover} `)) throw new Error(`${what} did not name leftover ${leftover}: ${out}`);
}
