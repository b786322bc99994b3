import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { vi } from 'vitest';
import { HookProcReader } from '../../main/core/sampling/linux/hook-proc-reader';
import { cleanEnv, trackGroup } from './spawned-groups';
import { waitFor } from './wait-for';

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

/** A tool call's leftover: `sleep 600` with the session's markers, once it has exec'd. Its pid. */
export async function markedLeftover(session: string): Promise<number> {
  const markers = cleanEnv({ CLAUDECODE: '1', CLAUDE_CODE_SESSION_ID: session });
  const leftover = await run(['/bin/bash', '-c', 'sleep 600 >/dev/null 2>&1 & echo $!'], markers);
  await waitFor('the leftover to exec sleep', () => {
    try {
      return readFileSync(`/proc/${leftover}/cmdline`, 'latin1').startsWith('sleep\0');
    } catch {
      return false;
    }
  });
  return leftover;
}

/** Every pid the hook's walk probes from now on (restored by vi.restoreAllMocks). */
export function probedPids(): number[] {
  const probed: number[] = [];
  const startKeyOf = HookProcReader.prototype.startKeyOf;
  vi.spyOn(HookProcReader.prototype, 'startKeyOf').mockImplementation(function (this: HookProcReader, pid) {
    probed.push(pid);
    return startKeyOf.call(this, pid);
  });
  return probed;
}
