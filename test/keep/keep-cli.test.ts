import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GroupView } from '../../shared/model';
import { FakeAgent } from '../support/fake-agent';
import { spawnGroupWithPid } from '../support/forced-pid';
import { groupMembers } from '../support/proc';
import { runCli, type CliResult } from '../support/run-cli';
import { type SpawnedGroup, spawnGroup, tempDirForTest } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';

const dataDir = (): string => tempDirForTest('corral-keep-cli-');
const cli = (dir: string, args: string[]): Promise<CliResult> =>
  runCli(args, { env: { CORRAL_DATA_DIR: dir, CORRAL_CONFIG: '/nonexistent' } });

async function psGroups(dir: string, all = false): Promise<{ sampledAt: number; groups: GroupView[] }> {
  const ps = await cli(dir, ['ps', '--json', ...(all ? ['--all'] : [])]);
  expect(ps.stderr).toBe('');
  return JSON.parse(ps.stdout) as { sampledAt: number; groups: GroupView[] };
}

describe('corral keep', () => {
  it('keeps a leftover: ps --json shows kept with the time left, in a later CLI process, until unkeep', async () => {
    const dir = dataDir();
    const agent = await FakeAgent.start();
    const call = await agent.toolCall('sleep 600 & echo started');
    await call.exited();
    const before = await waitFor('the leftover in ps', async () =>
      (await psGroups(dir)).groups.find((g) => g.pgid === call.pid && g.flags.includes('orphan')),
    );
    // Every group carries the field; nobody kept this one yet.
    expect(before.kept).toBeNull();

    const keep = await cli(dir, ['keep', before.id, '--for', '3h', '--note', 'the dev server I asked for']);
    expect(keep.code).toBe(0);
    expect(keep.stdout).toContain(`Kept ${before.id}`);
    expect(keep.stdout).toContain('kept, 3h00m left');

    // A separate process reads the keep back from the data directory.
    const { sampledAt, groups } = await psGroups(dir);
    const kept = groups.find((g) => g.id === before.id)!;
    expect(kept.flags).toContain('orphan');
    expect(kept.kept?.note).toBe('the dev server I asked for');
    const left = kept.kept!.until - sampledAt;
    expect(left).toBeGreaterThan(3 * 3_600_000 - 120_000);
    expect(left).toBeLessThanOrEqual(3 * 3_600_000);

    const table = await runCli(['ps'], {
      env: { CORRAL_DATA_DIR: dir, CORRAL_CONFIG: '/nonexistent', COLUMNS: '300', NO_COLOR: '1' },
    });
    const line = table.stdout.split('\n').find((l) => l.includes(before.id));
    expect(line).toMatch(/\(kept, (?:3h00m|2h59m) left\)/);
    expect(line).toContain('orphan');

    const list = await cli(dir, ['keep', '--list', '--json']);
    expect(list.code).toBe(0);
    const listed = (JSON.parse(list.stdout) as { keeps: Array<{ groupId: string; note: string }> }).keeps;
    expect(listed.map((k) => [k.groupId, k.note])).toEqual([[before.id, 'the dev server I asked for']]);
    const text = await cli(dir, ['keep', '--list']);
    expect(text.stdout).toMatch(
      new RegExp(`${before.id}\\s+kept, (?:3h00m|2h59m) left\\s+the dev server I asked for`),
    );

    const unkeep = await cli(dir, ['unkeep', before.id, '--json']);
    expect(unkeep.code).toBe(0);
    expect(JSON.parse(unkeep.stdout)).toEqual({ unkept: [before.id] });
    expect((await psGroups(dir)).groups.find((g) => g.id === before.id)?.kept).toBeNull();
    expect((await cli(dir, ['unkeep', before.id])).code).toBe(1);
  });

  it('keeps by --session the leftovers, never the agent itself, and refuses what is not running', async () => {
    const dir = dataDir();
    const agent = await FakeAgent.start();
    const call = await agent.toolCall('sleep 600 & echo started');
    await call.exited();
    await waitFor('the leftover in ps', async () =>
      (await psGroups(dir)).groups.find((g) => g.pgid === call.pid && g.session),
    );
    const keep = await cli(dir, ['keep', '--session', '3f0e5a52-7a53-4c55-9a51-2f1d8f6c0b11', '--json']);
    expect(keep.code).toBe(0);
    const kept = (JSON.parse(keep.stdout) as { kept: Array<{ pgid: number }> }).kept;
    expect(kept.map((k) => k.pgid)).toEqual([call.pid]);
    const { groups } = await psGroups(dir);
    expect(groups.find((g) => g.pgid === agent.pid)?.kept).toBeNull();
    expect(groups.find((g) => g.pgid === call.pid)?.kept).not.toBeNull();

    const none = await cli(dir, ['keep', '99999:99999:1']);
    expect(none.code).toBe(1);
    expect(none.stdout).toContain('Nothing was kept');
    const bad = await cli(dir, ['keep', '--for', '8x', `${call.pid}:${call.pid}:1`]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--for');
  });

  it('an expired keep is no keep', async () => {
    const dir = dataDir();
    const group = spawnGroup('sleep 600 & echo $! > "$DIR/pid"; wait');
    await group.ready('pid');
    const live = await waitFor('the group in ps --all', async () =>
      (await psGroups(dir, true)).groups.find((g) => g.pgid === group.pgid),
    );
    const at = Date.now() - 3_600_000;
    writeFileSync(
      join(dir, 'keeps.json'),
      JSON.stringify({
        version: 1,
        keeps: [
          { groupId: live.id, pgid: live.pgid, members: [], since: at, until: at + 60_000, note: null },
        ],
      }),
      { mode: 0o600 },
    );
    expect((await psGroups(dir, true)).groups.find((g) => g.id === live.id)?.kept).toBeNull();
    expect(JSON.parse((await cli(dir, ['keep', '--list', '--json'])).stdout)).toEqual({ keeps: [] });
  });

  it('a reused PGID never inherits the keep of the group that had it', async (ctx) => {
    const dir = dataDir();
    // A kept group ends and a new group is given its PGID. A thread of another test's process may take
    // the freed number first; the whole scenario then starts again with a new first group.
    let first: SpawnedGroup | undefined;
    let old: GroupView | undefined;
    let second: SpawnedGroup | null = null;
    for (let round = 0; round < 5 && second === null; round++) {
      first = spawnGroup('sleep 600 & echo $! > "$DIR/pid"; wait');
      await first.ready('pid');
      const view = await waitFor('the first group in ps --all', async () =>
        (await psGroups(dir, true)).groups.find((g) => g.pgid === first!.pgid),
      );
      old = view;
      expect((await cli(dir, ['keep', view.id])).code).toBe(0);
      process.kill(-first.pgid, 'SIGKILL');
      await waitFor('the first group gone', () => groupMembers(first!.pgid).length === 0);
      second = await spawnWithPid(first.pgid);
      if (second === null) expect((await cli(dir, ['unkeep', view.id])).code).toBe(0);
    }
    if (!second || !first || !old) {
      // Said, not passed: the namespace never handed the number out again (other tests' tasks held it).
      console.log('keep-cli: reused-PGID case skipped: no round could hand the kept group’s pid out again');
      ctx.skip();
      return;
    }
    await second.ready('pid');
    const { groups } = await psGroups(dir, true);
    const reused = groups.find((g) => g.pgid === first.pgid)!;
    expect(reused.id).not.toBe(old.id);
    expect(reused.kept).toBeNull();
    // Keeps end with their group (issue 47): the list releases the keep of the group that had the PGID.
    const listed = JSON.parse((await cli(dir, ['keep', '--list', '--json'])).stdout) as {
      keeps: Array<{ groupId: string }>;
    };
    expect(listed.keeps).toEqual([]);
  });

  it('corral policies reports no stop rule matching a kept group', async () => {
    const dir = dataDir();
    const config = join(dir, 'config.json');
    writeFileSync(
      config,
      JSON.stringify({ policies: [{ name: 'stop-orphans', match: { flags: ['orphan'] }, action: 'stop' }] }),
    );
    const agent = await FakeAgent.start();
    const kept = await agent.toolCall('sleep 600 & echo started');
    const other = await agent.toolCall('sleep 601 & echo started');
    await kept.exited();
    await other.exited();
    const env = { CORRAL_DATA_DIR: dir, CORRAL_CONFIG: config };
    const matched = async (): Promise<number[]> => {
      const report = JSON.parse((await runCli(['policies', '--json'], { env })).stdout) as {
        rules: Array<{ matches: Array<{ pgid: number }> }>;
      };
      return report.rules[0]!.matches.map((m) => m.pgid).sort((a, b) => a - b);
    };
    await waitFor('both leftovers matched', async () => (await matched()).length === 2);
    const id = (await psGroups(dir)).groups.find((g) => g.pgid === kept.pid)!.id;
    expect((await runCli(['keep', id], { env })).code).toBe(0);
    expect(await matched()).toEqual([other.pid]);
  });
});

/**
 * A new group whose leader gets exactly `pid`: inside the test's PID namespace, ns_last_pid is set to
 * the pid before it (another fork in the namespace may take it first: then try again). Null when the
 * number is held by another task (a thread of another test's process has it: /proc shows any tid).
 */
async function spawnWithPid(pid: number): Promise<SpawnedGroup | null> {
  if (existsSync(`/proc/${pid}`) && groupMembers(pid).length === 0) return null;
  try {
    return await spawnGroupWithPid(pid, 'sleep 600 & echo $! > "$DIR/pid"; wait');
  } catch {
    return null;
  }
}
