import { spawn } from 'node:child_process';
import { cleanEnv, trackGroup } from './spawned-groups';

/**
 * A tool call's shell that leaves `tail -f /dev/null` behind and exits, as an agent's `cmd &` does, with
 * the agent's markers in its environment. Its group is removed after the test; resolves to the leftover's pid
 * and the group's id (the shell's pid).
 */
export async function toolCallLeavingTail(
  markers: Record<string, string>,
): Promise<{ leftover: number; pgid: number }> {
  const shell = spawn('/bin/bash', ['-c', 'tail -f /dev/null >/dev/null 2>&1 & echo $!'], {
    detached: true,
    stdio: ['ignore', 'pipe', 'ignore'],
    env: cleanEnv(markers),
  });
  trackGroup(shell.pid!);
  let text = '';
  shell.stdout.on('data', (c: Buffer) => (text += c.toString()));
  await new Promise((r) => shell.on('close', r));
  return { leftover: Number(text.trim()), pgid: shell.pid! };
}
