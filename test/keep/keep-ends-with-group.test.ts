import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { GroupView, MonitorEvent } from '../../shared/model';
import { loadKeeps } from '../../main/core/storage/keeps';
import { FakeAgent } from '../support/fake-agent';
import { runCli, type CliResult } from '../support/run-cli';
import { tempDirForTest, trackGroup } from '../support/spawned-groups';
import { describeEvents, waitFor } from '../support/wait-for';

const BUILT_CLI = fileURLToPath(new URL('../../out/main/corral.js', import.meta.url));
const cli = (dir: string, args: string[]): Promise<CliResult> =>
  runCli(args, { env: { CORRAL_DATA_DIR: dir, CORRAL_CONFIG: '/nonexistent' } });

/** A tool call's leftover `sleep`, kept for 30 minutes; resolves to its group as ps showed it. */
async function keptLeftover(dir: string, agent: FakeAgent): Promise<GroupView> {
  const call = await agent.toolCall('sleep 600 & echo started');
  await call.exited();
  const group = await waitFor('the leftover in ps', async () => {
    const ps = await cli(dir, ['ps', '--json']);
    return (JSON.parse(ps.stdout) as { groups: GroupView[] }).groups.find(
      (g) => g.pgid === call.pid && g.flags.includes('orphan'),
    );
  });
  expect((await cli(dir, ['keep', group.id, '--for', '30m'])).code).toBe(0);
  return group;
}

const listed = async (dir: string): Promise<string[]> => {
  const list = await cli(dir, ['keep', '--list', '--json']);
  expect(list.code, list.stderr).toBe(0);
  return (JSON.parse(list.stdout) as { keeps: Array<{ groupId: string }> }).keeps.map((k) => k.groupId);
};

describe('keeps end with their group (issue 47)', () => {
  it('kill warns that the group was kept and releases the keep; keep --list no longer shows it', async () => {
    const dir = tempDirForTest('corral-keep-ends-');
    const agent = await FakeAgent.start();
    const group = await keptLeftover(dir, agent);
    expect(await listed(dir)).toEqual([group.id]);

    const kill = await cli(dir, ['kill', group.id]);
    expect(kill.code, kill.stdout).toBe(0);
    expect(kill.stderr).toContain(`warning: group ${group.id} was kept (kept, `);
    expect(kill.stderr).toMatch(/was kept \(kept, (?:30m00s|29m[0-5]\ds) left/);
    expect(kill.stderr).toContain('its keep is released');
    expect(loadKeeps(dir)).toEqual([]);
    expect(await listed(dir)).toEqual([]);
  });

  it('a kept group that exits on its own is kept no more: keep --list releases it', async () => {
    const dir = tempDirForTest('corral-keep-ends-');
    const agent = await FakeAgent.start();
    const group = await keptLeftover(dir, agent);
    // The leftover exits by itself (signalled by its own pid, not through Corral).
    process.kill(group.processes[0]!.pid, 'SIGTERM');
    await waitFor('the leftover to exit', () => !existsSync(`/proc/${group.processes[0]!.pid}`));
    expect(await listed(dir)).toEqual([]);
    expect(loadKeeps(dir)).toEqual([]);
  });

  it('a running watch releases the keep of a group that ended', async () => {
    const dir = tempDirForTest('corral-keep-ends-');
    const watch = spawn(process.execPath, [BUILT_CLI, 'watch', '--json'], {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: process.env.HOME ?? '/root',
        CORRAL_DATA_DIR: dir,
        CORRAL_CONFIG: '/nonexistent',
      },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    trackGroup(watch.pid!);
    const events: MonitorEvent[] = [];
    createInterface({ input: watch.stdout }).on('line', (line) =>
      events.push(JSON.parse(line) as MonitorEvent),
    );
    try {
      const agent = await FakeAgent.start();
      const group = await keptLeftover(dir, agent);
      await waitFor('the watch to follow the group', () =>
        events.find((e) => e.type === 'group-started' && e.pgid === group.pgid),
      );
      // History says the open incident's group is kept.
      await waitFor('the incident recorded', () =>
        events.find((e) => e.type === 'incident-opened' && e.pgid === group.pgid),
      );
      const history = await runCli(['history'], {
        env: { CORRAL_DATA_DIR: dir, CORRAL_CONFIG: '/nonexistent', COLUMNS: '400' },
      });
      const line = history.stdout.split('\n').find((l) => l.includes(`${group.pgid}:`));
      expect(line, history.stdout).toContain('still open (kept)');
      process.kill(group.processes[0]!.pid, 'SIGTERM');
      await waitFor(
        'the watch to see the group end',
        () => events.find((e) => e.type === 'group-ended' && e.pgid === group.pgid),
        { explain: () => describeEvents(events) },
      );
      // Released by the watch itself, with no CLI command reading the list.
      await waitFor('the keep released', () => loadKeeps(dir).length === 0);
    } finally {
      const exit = new Promise((r) => watch.on('exit', r));
      watch.kill('SIGTERM');
      await exit;
    }
  });
});
