import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FakeAgent } from '../support/fake-agent';
import { runCli } from '../support/run-cli';
import { tempDirForTest } from '../support/spawned-groups';
import { describeEvents, waitFor } from '../support/wait-for';
import { startWatchJson } from '../support/watch-json';

describe('corral watch --json and corral history', () => {
  it('prints one JSON event per line with ps field names, exits cleanly on SIGINT, and history lists the incident', async () => {
    const dataDir = tempDirForTest('corral-watch-');
    const configDir = tempDirForTest('corral-config-');
    const configPath = join(configDir, 'config.json');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      configPath,
      JSON.stringify({
        pollIntervalMs: 200,
        policies: [{ name: 'orphans', match: { flags: ['orphan'] }, action: 'stop' }],
      }),
    );
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/root',
      CORRAL_DATA_DIR: dataDir,
      CORRAL_CONFIG: configPath,
    };
    const watch = startWatchJson(env);
    const { child: watcher, events } = watch;

    const agent = await FakeAgent.start();
    await waitFor(
      'the watcher to see the agent',
      () => events.some((e) => e.type === 'group-started' && e.pgid === agent.pid),
      {
        timeoutMs: 20_000,
      },
    );
    const call = await agent.toolCall('sleep 600 & echo done');
    await call.exited();
    const orphaned = await waitFor(
      'orphaned event',
      () => events.find((e) => e.type === 'orphaned' && e.pgid === call.pid),
      { explain: () => `tool call ${call.pid}; ${describeEvents(events)}\nstderr: ${watch.stderr()}` },
    );
    expect(orphaned).toMatchObject({ pgid: call.pid, sid: call.pid, agent: { name: 'claude-code' } });
    // Named as the monitor last read it: the sleep, or (on a loaded machine, where the shell exited before
    // its child's exec) the shell's forked copy, which becomes the sleep.
    expect(['sleep 600', '[sleep]', '/bin/bash -c sleep 600 & echo done']).toContain(orphaned.command);
    await waitFor('the orphan to be the sleep', () =>
      readFileSync(`/proc/${orphaned.pid}/cmdline`, 'latin1').startsWith('sleep\u0000600\u0000'),
    );
    expect(orphaned.groupId).toMatch(/^\d+:\d+:\d+$/);
    await waitFor('incident opened', () =>
      events.find((e) => e.type === 'incident-opened' && e.pgid === call.pid),
    );
    // Observe mode (the default): the policy's match is an event, and nothing is signalled.
    const matched = await waitFor('policy-matched event', () =>
      events.find((e) => e.type === 'policy-matched' && e.pgid === call.pid),
    );
    expect(matched.detail).toEqual({ policy: 'orphans', action: 'stop', executed: false });
    expect(events.some((e) => e.type === 'signal-sent')).toBe(false);

    const exit = new Promise<number | null>((resolve) => watcher.on('exit', (code) => resolve(code)));
    watcher.kill('SIGINT');
    expect(await exit).toBe(0);
    expect(watch.stderr()).toBe('');

    const history = await runCli(['history', '--json'], { env: { CORRAL_DATA_DIR: dataDir } });
    expect(history.code).toBe(0);
    const { incidents } = JSON.parse(history.stdout) as {
      incidents: Array<{ kind: string; pgid: number; agent: string; end: string }>;
    };
    expect(
      incidents.some(
        (i) => i.kind === 'orphan' && i.pgid === call.pid && i.agent === 'claude-code' && i.end === 'open',
      ),
    ).toBe(true);
    const table = await runCli(['history'], { env: { CORRAL_DATA_DIR: dataDir } });
    expect(table.stdout).toContain('claude-code');
    expect(table.stdout).toContain('orphan');
  });

  it('exits cleanly on SIGTERM, as docs/cli.md says', async () => {
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/root',
      CORRAL_DATA_DIR: tempDirForTest('corral-watch-'),
      CORRAL_CONFIG: '/nonexistent',
    };
    const watch = startWatchJson(env);
    const { child: watcher, events } = watch;
    const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      watcher.on('exit', (code, signal) => resolve({ code, signal })),
    );
    // Watching for real (it reported an agent it saw) before the signal comes.
    const agent = await FakeAgent.start();
    await waitFor(
      'the watcher to see the agent',
      () => events.some((e) => e.type === 'group-started' && e.pgid === agent.pid),
      { timeoutMs: 30_000 },
    );
    watcher.kill('SIGTERM');
    expect(await exit).toEqual({ code: 0, signal: null });
    expect(watch.stderr()).toBe('');
  });
});
