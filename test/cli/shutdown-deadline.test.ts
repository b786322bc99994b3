// SIGTERM ends a long-running command within its shutdown deadline even when its stop never settles
// (the FIFO case, where a read would have wedged watch and serve, is in test/hostile/untrusted-shutdown.test.ts).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SHUTDOWN_DEADLINE_MS } from '../../main/cli/shutdown';
import { trackGroup } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';

const FIXTURE = fileURLToPath(new URL('../fixtures/wedged-shutdown.ts', import.meta.url));

function startWedged() {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/nonexistent' },
  });
  trackGroup(child.pid!);
  const lines: string[] = [];
  let stderr = '';
  createInterface({ input: child.stdout! }).on('line', (l) => lines.push(l));
  child.stderr!.on('data', (d) => (stderr += d));
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  child.on('exit', (code, signal) => (exit = { code, signal }));
  return {
    pid: child.pid!,
    said: (line: string) => () => lines.includes(line),
    exit: () => exit,
    stderr: () => stderr,
  };
}

describe('the shutdown deadline', () => {
  it('a stop that never settles: the process exits (1) at the deadline after SIGTERM, saying why', async () => {
    const wedged = startWedged();
    await waitFor('the fixture ready', wedged.said('ready'), { timeoutMs: 30_000 });
    process.kill(wedged.pid, 'SIGTERM');
    // The exit comes at the deadline: the bound is the deadline and as much again for a loaded machine.
    const exit = await waitFor('the wedged process to exit', wedged.exit, {
      timeoutMs: 2 * SHUTDOWN_DEADLINE_MS,
    });
    expect(exit).toEqual({ code: 1, signal: null });
    expect(wedged.stderr()).toContain(`corral wedged: not stopped ${SHUTDOWN_DEADLINE_MS} ms after SIGTERM`);
  });

  it('a second signal ends it at once', async () => {
    const wedged = startWedged();
    await waitFor('the fixture ready', wedged.said('ready'), { timeoutMs: 30_000 });
    process.kill(wedged.pid, 'SIGTERM');
    await waitFor('the first SIGTERM taken', wedged.said('stopping'), { timeoutMs: 30_000 });
    process.kill(wedged.pid, 'SIGINT');
    const exit = await waitFor('the process to exit on the second signal', wedged.exit, {
      timeoutMs: SHUTDOWN_DEADLINE_MS,
    });
    expect(exit).toEqual({ code: 1, signal: null });
    expect(wedged.stderr()).toContain('corral wedged: a second signal came');
  });
});
