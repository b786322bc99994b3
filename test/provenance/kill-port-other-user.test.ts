import { expect, it } from 'vitest';
import type { TeardownResult } from '../../shared/model';
import { AS_NOBODY } from '../support/as-nobody';
import { CLAUDE_MARKERS } from '../support/fake-agent';
import { groupMembers, isAlive } from '../support/proc';
import { runCli } from '../support/run-cli';
import { cleanEnv, spawnGroup } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';
import { CLI_ENV, freePort, psGroups, waitListening } from './live-support';
import { describeUnless } from '../support/skip';

interface KillByOutput {
  refused: string | null;
  results: TeardownResult[];
}

async function killBy(args: string[]): Promise<{ code: number; out: KillByOutput }> {
  const r = await runCli(['kill', ...args, '--json', '--grace-ms', '2000'], { env: CLI_ENV });
  return { code: r.code, out: JSON.parse(r.stdout) as KillByOutput };
}

// setpriv changes user only as root: as anyone else there is no other user's process to start.
const notRoot = process.getuid?.() !== 0 ? 'needs root to start a listener as nobody' : null;

describeUnless(notRoot)('corral kill --port and a listener of another user', () => {
  it('never signals it without --any-owner, whatever agent markers its environment forges', async () => {
    const port = await freePort();
    // The leader execs into the listener as nobody; its environment claims to be Claude Code's tool call.
    const listener = spawnGroup(
      `cd / && exec ${AS_NOBODY.join(' ')} python3 -m http.server ${port} --bind 127.0.0.1`,
      { env: cleanEnv({ ...CLAUDE_MARKERS, CLAUDE_PID: '1' }) },
    );
    await waitListening(port);
    // Precondition: the forged markers work, Corral takes the listener for an agent's.
    const shown = await waitFor('the listener shown with its port', async () =>
      (await psGroups()).find((g) => g.pgid === listener.pgid && g.processes.some((p) => p.ports?.length)),
    );
    expect(shown.agent?.name).toBe('claude-code');
    expect(shown.processes.find((p) => p.pid === listener.pid)?.uid).toBe(65534);

    const refused = await killBy(['--port', String(port)]);
    expect(refused.out).toMatchObject({
      refused: expect.stringMatching(/another user.*--any-owner/),
      results: [],
    });
    expect(refused.code).toBe(3);
    expect(isAlive(listener.pid)).toBe(true);

    const forced = await killBy(['--port', String(port), '--any-owner']);
    expect(forced.out.results.map((r) => r.pgid)).toEqual([listener.pgid]);
    expect(forced.code).toBe(0);
    await waitFor('the listener gone', () => groupMembers(listener.pgid).length === 0);
  });
});
