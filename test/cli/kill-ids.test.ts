import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { TeardownResult } from '../../shared/model';
import { FakeAgent } from '../support/fake-agent';
import { groupMembers, isAlive, readProcStat } from '../support/proc';
import { runCli } from '../support/run-cli';
import { startHarness } from '../support/service-harness';
import { spawnGroup } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';

const ENV = { CORRAL_CONFIG: '/nonexistent' };

/** Field 22 of /proc/<pid>/stat: when the process started, in clock ticks since boot. */
function startTicks(pid: number): number {
  const text = readFileSync(`/proc/${pid}/stat`, 'latin1');
  return Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[19]);
}

/** The id `corral ps` prints for the group now. */
async function idNow(pgid: number): Promise<string> {
  const ps = await runCli(['ps', '--json', '--all'], { env: ENV });
  const groups = (JSON.parse(ps.stdout) as { groups: Array<{ id: string; pgid: number }> }).groups;
  return groups.find((g) => g.pgid === pgid)!.id;
}

describe('corral kill with ids Corral printed earlier', () => {
  it('accepts the id from an orphaned event after the leader died and the anchor moved', async () => {
    const harness = startHarness();
    try {
      const agent = await FakeAgent.start();
      const call = await agent.toolCall('sleep 600 & sleep 0.5; echo done');
      await call.exited();
      const orphaned = await harness.next('orphaned', (e) => e.pgid === call.pid);
      // The id the monitor printed names the leader, which is gone now.
      expect(orphaned.groupId.startsWith(`${call.pid}:${call.pid}:`)).toBe(true);
      await waitFor('the incident saved', async () =>
        (await harness.running.service.incidents()).find((i) => i.groupId === orphaned.groupId),
      );
      expect(await idNow(call.pid)).not.toBe(orphaned.groupId);

      const r = await runCli(['kill', orphaned.groupId, '--json', '--grace-ms', '2000'], {
        env: { ...ENV, CORRAL_DATA_DIR: harness.dataDir },
      });
      const result = JSON.parse(r.stdout) as TeardownResult;
      expect(result.refused).toBeNull();
      expect(r.code).toBe(0);
      expect(groupMembers(call.pid)).toEqual([]);
    } finally {
      await harness.stop();
    }
  });

  it('says a group that is already gone is already gone, and exits 0', async () => {
    // The member must start in a later clock tick than the leader: one started in the same tick counts as
    // started no later than it, which the id rule accepts (a reused PGID cannot be that old). So the
    // shell spins until the kernel's uptime has passed its own start tick before it forks the sleep.
    const group = spawnGroup(
      [
        't=$(getconf CLK_TCK); s=$(cut -d" " -f22 /proc/$$/stat)',
        'until [ "$(awk -v t="$t" \'{ print int($1 * t) }\' /proc/uptime)" -gt "$s" ]; do :; done',
        'sleep 600 & echo $! > "$DIR/pid"; wait',
      ].join('\n'),
    );
    const pid = Number(await group.ready('pid'));
    const id = await idNow(group.pgid);
    expect(id.startsWith(`${group.pgid}:${group.pgid}:`)).toBe(true);
    expect(startTicks(pid)).toBeGreaterThan(Number(id.split(':')[2]));
    process.kill(-group.pgid, 'SIGKILL');
    await waitFor('group gone', () => groupMembers(group.pgid).length === 0 && !isAlive(pid));
    const text = await runCli(['kill', id], { env: ENV });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`group ${id} is already gone`);
    const json = await runCli(['kill', id, '--json'], { env: ENV });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ groupId: id, outcome: 'already-gone', refused: null });
  });

  it('will not stop a leaderless group it cannot prove is the one the id named', async () => {
    // The member must start in a later clock tick than the leader: one started in the same tick counts as
    // started no later than it, which the id rule accepts (a reused PGID cannot be that old). So the
    // shell spins until the kernel's uptime has passed its own start tick before it forks the sleep.
    const group = spawnGroup(
      [
        't=$(getconf CLK_TCK); s=$(cut -d" " -f22 /proc/$$/stat)',
        'until [ "$(awk -v t="$t" \'{ print int($1 * t) }\' /proc/uptime)" -gt "$s" ]; do :; done',
        'sleep 600 & echo $! > "$DIR/pid"; wait',
      ].join('\n'),
    );
    const pid = Number(await group.ready('pid'));
    const id = await idNow(group.pgid);
    expect(id.startsWith(`${group.pgid}:${group.pgid}:`)).toBe(true);
    expect(startTicks(pid)).toBeGreaterThan(Number(id.split(':')[2]));
    process.kill(group.pgid, 'SIGKILL');
    await waitFor('leader gone', () => readProcStat(group.pgid) === null);
    const r = await runCli(['kill', id, '--json'], {
      env: { ...ENV, CORRAL_DATA_DIR: '/nonexistent-corral' },
    });
    expect(r.code).toBe(3);
    expect((JSON.parse(r.stdout) as TeardownResult).refused).toContain('cannot prove');
    expect(isAlive(pid)).toBe(true);
  });
});
