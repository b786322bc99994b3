import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FakeAgent } from '../support/fake-agent';
import { exhaustDescriptors, tableFull } from '../support/fd-exhaustion';
import { runCli } from '../support/run-cli';
import { tempDirForTest } from '../support/spawned-groups';
import { describeEvents, waitFor } from '../support/wait-for';
import { startWatchJson } from '../support/watch-json';

/** Low enough that a few hundred connections fill the table, high enough for Corral to start. */
const NOFILE = 256;

/**
 * Issue 51 (High): another user held idle connections to the hook port until `watch` ran out of
 * descriptors; a leftover started then was never reported nor recorded, and nothing was said. A read
 * that fails for want of descriptors is Corral's problem, not the process's: the leftover is read again
 * at each look, reported once descriptors are free, and the shortage is said once.
 */
describe('corral watch with a full descriptor table', () => {
  it('reports and records a leftover started while it had no descriptor free, and says so once', async () => {
    const dataDir = tempDirForTest('corral-watch-');
    const configPath = join(tempDirForTest('corral-config-'), 'config.json');
    writeFileSync(configPath, JSON.stringify({ pollIntervalMs: 200 }));
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/root',
      CORRAL_DATA_DIR: dataDir,
      CORRAL_CONFIG: configPath,
    };
    // prlimit execs node in its place: the watcher's pid is the one spawned.
    const watch = startWatchJson(env, ['prlimit', `--nofile=${NOFILE}:${NOFILE}`, '--']);
    const { child: watcher, events } = watch;

    const agent = await FakeAgent.start();
    await waitFor(
      'the watcher to see the agent',
      () => events.some((e) => e.type === 'group-started' && e.pgid === agent.pid),
      { timeoutMs: 20_000, explain: () => watch.stderr() },
    );
    // The hook socket: the one listener of a watch that anyone (here the same user) can hold connections to.
    const socket = join(dataDir, 'hooks', 'hook.sock');
    await waitFor('the hook socket', () => (existsSync(socket) ? true : undefined));
    const exhaustion = await exhaustDescriptors(watcher.pid!, socket);

    const call = await agent.toolCall('tail -f /dev/null >/dev/null 2>&1 & echo $!');
    const leftover = Number((await call.closed()).stdout);
    // Looks the watcher made while its table stayed full: every one of them failed to read the leftover.
    await waitFor(
      'the watcher to say it ran out of descriptors',
      () => /too many open files/.test(watch.stderr()),
      {
        timeoutMs: 10_000,
        explain: () => `stderr: ${watch.stderr()}\n${describeEvents(events)}`,
      },
    );
    expect(tableFull(watcher.pid!)).toBe(true);
    await exhaustion.release();

    const orphaned = await waitFor(
      'the leftover reported once descriptors were free',
      () => events.find((e) => e.type === 'orphaned' && e.pgid === call.pid),
      {
        timeoutMs: 20_000,
        explain: () =>
          `leftover ${leftover} of ${call.pid} (${exhaustion.how}); stderr: ${watch.stderr()}\n${describeEvents(events)}`,
      },
    );
    expect(orphaned).toMatchObject({ pid: leftover, agent: { name: 'claude-code' } });
    await waitFor('its incident opened', () =>
      events.find((e) => e.type === 'incident-opened' && e.pgid === call.pid),
    );
    await waitFor('the watcher to say every process is read again', () =>
      /read again\n/.test(watch.stderr()),
    );

    const exit = new Promise<number | null>((resolve) => watcher.on('exit', (code) => resolve(code)));
    watcher.kill('SIGINT');
    expect(await exit).toBe(0);
    // Said once when reads began to fail and once when they succeeded again, never once per look.
    expect(watch.stderr().match(/too many open files/g)).toHaveLength(1);
    expect(watch.stderr().trim().split('\n')).toEqual([
      expect.stringMatching(/^corral watch: sampling: .*EMFILE \(too many open files\).*not taken for gone/),
      'corral watch: sampling: every process is read again',
    ]);

    const history = await runCli(['history', '--json'], { env: { CORRAL_DATA_DIR: dataDir } });
    const { incidents } = JSON.parse(history.stdout) as {
      incidents: Array<{ kind: string; pgid: number; agent: string }>;
    };
    expect(incidents).toContainEqual(
      expect.objectContaining({ kind: 'orphan', pgid: call.pid, agent: 'claude-code' }),
    );
  });
});
