import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cleanEnv, trackGroup } from './spawned-groups';

// Fixtures of the tests of the hook answer's walk down the pid numbers (pid-counter-floor,
// monitor-pid-floor): real processes, the holes they leave in the numbers, and the answer's payload.

/** The last pid the kernel allocated in this PID namespace (/proc/loadavg's last field). */
export function lastPid(): number {
  return Number(readFileSync('/proc/loadavg', 'latin1').trim().split(' ').pop());
}

/** Runs a command in a group of its own (tracked, so removed after the test): its printed pid, or its own. */
export function run(argv: string[], env = cleanEnv()): Promise<number> {
  const child = spawn(argv[0]!, argv.slice(1), { detached: true, stdio: ['ignore', 'pipe', 'ignore'], env });
  trackGroup(child.pid!);
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise((resolve) => child.on('close', () => resolve(Number(out.trim()) || child.pid!)));
}

/** Short-lived processes: the holes a tool call's children leave in the pid numbers. */
export async function leaveHoles(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await run(['/bin/true']);
}

/** Claude Code's PostToolUse payload for a Bash call that left `sleep 600 &` behind. */
export function afterToolPayload(session: string, toolUseId: string, durationMs: number): string {
  return JSON.stringify({
    session_id: session,
    tool_use_id: toolUseId,
    tool_name: 'Bash',
    tool_input: { command: 'sleep 600 &' },
    hook_event_name: 'PostToolUse',
    duration_ms: durationMs,
  });
}
