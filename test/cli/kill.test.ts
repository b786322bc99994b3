import { userInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import type { GroupView, TeardownResult } from '../../shared/model';
import {
  AS_NOBODY,
  nobodyCannotRunCheckout,
  noteSkippedAsNobody,
  tempHomeForNobody,
} from '../support/as-nobody';
import { FakeAgent } from '../support/fake-agent';
import { groupMembers, isAlive, readProcStat } from '../support/proc';
import { runCli } from '../support/run-cli';
import { spawnGroup } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';

const ENV = { CORRAL_CONFIG: '/nonexistent' };

async function groupsNow(): Promise<GroupView[]> {
  const ps = await runCli(['ps', '--json', '--all'], { env: ENV });
  expect(ps.code).toBe(0);
  return (JSON.parse(ps.stdout) as { groups: GroupView[] }).groups;
}

async function kill(args: string[], env: Record<string, string> = ENV, command?: string[]) {
  const r = await runCli(['kill', ...args, '--json'], { env, ...(command ? { command } : {}) });
  return { code: r.code, result: JSON.parse(r.stdout) as TeardownResult, stderr: r.stderr };
}

noteSkippedAsNobody('kill.test.ts');

describe('corral kill', () => {
  it('stops the whole tool-call group after its shell exited, and exits 0', async () => {
    const group = spawnGroup('sleep 600 & (sleep 600 & sleep 600 & wait) & echo ready > "$DIR/ready"');
    await group.ready('ready');
    await waitFor('leader gone', () => readProcStat(group.pid) === null);
    const view = (await groupsNow()).find((g) => g.pgid === group.pgid)!;
    expect(view.processes.length).toBe(4);
    const { code, result } = await kill([view.id, '--grace-ms', '2000']);
    expect(result.refused).toBeNull();
    expect(result.clean).toBe(true);
    expect(code).toBe(0);
    expect(result.processes.map((p) => p.outcome)).toEqual(Array(4).fill('exited-after-term'));
    expect(groupMembers(group.pgid)).toEqual([]);
  });

  it('--dry-run lists what it would signal and signals nothing', async () => {
    const group = spawnGroup('sleep 600 & echo $! > "$DIR/pid"; wait');
    const pid = Number(await group.ready('pid'));
    const view = (await groupsNow()).find((g) => g.pgid === group.pgid)!;
    const { code, result } = await kill([view.id, '--dry-run']);
    expect(code).toBe(1);
    expect(result.dryRun).toBe(true);
    expect(result.signals).toEqual([]);
    expect(result.processes.map((p) => p.pid).sort()).toEqual([group.pid, pid].sort());
    expect(isAlive(pid) && isAlive(group.pid)).toBe(true);
  });

  it('refuses a bare PID, and a group id whose PGID now belongs to another group', async () => {
    const group = spawnGroup('sleep 600');
    await waitFor('sleep started', () => groupMembers(group.pgid).length === 1);
    const bare = await runCli(['kill', String(group.pgid)], { env: ENV });
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('never by a bare PID or PGID');
    // The id of a dead group that had this PGID: same PGID, an anchor identity that no longer exists.
    const stale = `${group.pgid}:${group.pgid}:1`;
    const { code, result } = await kill([stale]);
    expect(code).toBe(3);
    expect(result.refused).toContain('PGID');
    expect(groupMembers(group.pgid)).toHaveLength(1);
  });

  it('refuses a group that holds the agent, and --orphans-only stops just the orphans', async () => {
    const agent = await FakeAgent.start();
    // A tool call that did not get its own group: it shares the agent's group.
    const call = await agent.toolCall('sleep 600 & echo done', { detached: false });
    await call.exited();
    const view = await waitFor('orphan in the agent group', async () =>
      (await groupsNow()).find(
        (g) => g.pgid === agent.pid && g.processes.some((p) => p.flags.includes('orphan')),
      ),
    );
    expect(view.containsAgent).toBe(true);
    const orphan = view.processes.find((p) => p.flags.includes('orphan'))!;
    const plain = await kill([view.id]);
    expect(plain.code).toBe(3);
    expect(plain.result.refused).toContain('orphans-only');
    expect(isAlive(orphan.pid)).toBe(true);

    const only = await kill([view.id, '--orphans-only', '--grace-ms', '1000']);
    expect(only.code).toBe(0);
    expect(only.result.processes.filter((p) => p.outcome !== 'skipped').map((p) => p.pid)).toEqual([
      orphan.pid,
    ]);
    expect(only.result.processes.find((p) => p.pid === agent.pid)?.outcome).toBe('skipped');
    await waitFor('orphan gone', () => !isAlive(orphan.pid));
    expect(isAlive(agent.pid)).toBe(true);
  });

  it.skipIf(nobodyCannotRunCheckout !== null)(
    'run as another user, reports EPERM and touches nothing',
    async () => {
      const group = spawnGroup('sleep 600 & wait');
      await waitFor('members', () => groupMembers(group.pgid).length === 2);
      const view = (await groupsNow()).find((g) => g.pgid === group.pgid)!;
      const tsx = new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url).pathname;
      const cli = new URL('../../main/cli/corral.ts', import.meta.url).pathname;
      const { code, result } = await kill(
        [view.id, '--grace-ms', '200'],
        { ...ENV, HOME: tempHomeForNobody() },
        [...AS_NOBODY, process.execPath, tsx, cli],
      );
      // docs/cli.md (the CLI table): 1 when something is left running.
      expect(code).toBe(1);
      expect(result.clean).toBe(false);
      expect(result.processes.map((p) => p.outcome)).toEqual(['not-permitted', 'not-permitted']);
      // The owner is whoever runs the tests (the one setpriv needs: root), never a name assumed here.
      for (const p of result.processes)
        expect(p.owner).toEqual({ uid: process.getuid!(), user: userInfo().username });
      expect(groupMembers(group.pgid)).toHaveLength(2);
    },
  );
});
