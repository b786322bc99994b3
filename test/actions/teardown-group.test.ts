import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { teardown, type TeardownOptions } from '../../main/core/actions/stop-and-record';
import type { TeardownProcessOutcome, TeardownResult } from '../../shared/model';
import { groupMembers, isAlive } from '../support/proc';
import { spawnGroup, trackGroup } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';
import { liveMembers, newSampler, readIdentity, targetFor } from './group-target';

const sampler = newSampler();

function options(extra: Partial<TeardownOptions> = {}): TeardownOptions {
  return { graceMs: 3000, mode: 'group', withEscaped: false, dryRun: false, sampler, ...extra };
}

function outcomeOf(result: TeardownResult, pid: number): TeardownProcessOutcome {
  const found = result.processes.find((p) => p.pid === pid);
  if (!found) throw new Error(`no outcome for ${pid} in ${JSON.stringify(result.processes)}`);
  return found;
}

const leaderGone = (pid: number) => waitFor(`leader ${pid} to exit`, () => !isAlive(pid));
const sleeps = (pgid: number) => liveMembers(sampler, pgid).filter((r) => r.name === 'sleep');

describe('teardown, group mode (real processes)', () => {
  it('stops `sleep 600 & echo done` after its bash leader exited', async () => {
    const g = spawnGroup('sleep 600 & echo $! > "$DIR/sleep"; echo done');
    const sleepPid = Number(await g.ready('sleep'));
    await leaderGone(g.pid);

    const result = await teardown(targetFor(sampler, g.pgid), options());

    expect(result.refused).toBeNull();
    expect(groupMembers(g.pgid)).toEqual([]);
    expect(result.clean).toBe(true);
    expect(result.signals.map((s) => [s.signal, s.target])).toEqual([
      ['SIGTERM', `-${g.pgid}`],
      ['SIGCONT', `-${g.pgid}`],
    ]);
    expect(result.signals[0]!.result).toBe('sent');
    // The sleep may be gone before the SIGCONT that follows at once: the group is then already empty.
    expect(['sent', 'ESRCH']).toContain(result.signals[1]!.result);
    expect(outcomeOf(result, sleepPid)).toMatchObject({ outcome: 'exited-after-term', endedBy: 'SIGTERM' });
    // Seen gone after the SIGTERM went out, and before the teardown ended.
    const goneAfterMs = outcomeOf(result, sleepPid).goneAfterMs!;
    expect(goneAfterMs).toBeGreaterThanOrEqual(result.signals[0]!.at - result.startedAt);
    expect(goneAfterMs).toBeLessThanOrEqual(result.finishedAt - result.startedAt);
  });

  it('stops a group with several nested children once the leader exited', async () => {
    const g = spawnGroup(
      '(sleep 600 & sleep 600 & wait) & (bash -c "sleep 600 & wait") & (sh -c "(sleep 600 &); exec sleep 600") & echo ok > "$DIR/ready"',
    );
    await g.ready('ready');
    await leaderGone(g.pid);
    await waitFor('five nested sleeps', () => sleeps(g.pgid).length === 5);
    const target = targetFor(sampler, g.pgid);
    expect(target.members.length).toBeGreaterThanOrEqual(7);

    const result = await teardown(target, options());

    expect(groupMembers(g.pgid)).toEqual([]);
    expect(result.clean).toBe(true);
    expect(result.signals.map((s) => s.signal)).toEqual(['SIGTERM', 'SIGCONT']);
    for (const m of target.members) expect(outcomeOf(result, m.pid).outcome).toBe('exited-after-term');
  });

  it('sends SIGKILL after the grace to a child that ignores SIGTERM, and says which signal ended each', async () => {
    const g = spawnGroup(
      `(trap '' TERM; echo $BASHPID > "$DIR/ignoring"; exec sleep 600) & sleep 600 & echo $! > "$DIR/plain"`,
    );
    const ignoring = Number(await g.ready('ignoring'));
    const plain = Number(await g.ready('plain'));
    await leaderGone(g.pid);
    await waitFor('the TERM-ignoring child to exec sleep', () => sampler.readOne(ignoring)?.name === 'sleep');

    const graceMs = 400;
    const result = await teardown(targetFor(sampler, g.pgid), options({ graceMs }));

    expect(groupMembers(g.pgid)).toEqual([]);
    expect(result.clean).toBe(true);
    expect(result.signals.map((s) => [s.signal, s.target, s.result])).toEqual([
      ['SIGTERM', `-${g.pgid}`, 'sent'],
      ['SIGCONT', `-${g.pgid}`, 'sent'],
      ['SIGKILL', `-${g.pgid}`, 'sent'],
    ]);
    expect(result.signals[2]!.at - result.signals[0]!.at).toBeGreaterThanOrEqual(graceMs);
    expect(outcomeOf(result, ignoring)).toMatchObject({ outcome: 'killed', endedBy: 'SIGKILL' });
    expect(outcomeOf(result, plain)).toMatchObject({ outcome: 'exited-after-term', endedBy: 'SIGTERM' });
    expect(outcomeOf(result, ignoring).goneAfterMs).toBeGreaterThanOrEqual(graceMs);
  });

  it('reaches every survivor with the negative-PGID signal when the leader (the anchor) exited first', async () => {
    const g = spawnGroup(
      'mkfifo "$DIR/go"; sleep 600 & sleep 600 & echo ok > "$DIR/ready"; read -r _ < "$DIR/go"',
    );
    await g.ready('ready');
    const leader = readIdentity(sampler, g.pid);
    const target = targetFor(sampler, g.pgid);
    expect(target.anchor).toEqual({ pid: leader.pid, startKey: leader.startKey });
    // The script made the fifo; a line on it lets the leader exit.
    writeFileSync(`${g.dir}/go`, 'go\n');
    await leaderGone(g.pid);
    const survivors = liveMembers(sampler, g.pgid).map((r) => r.pid);
    expect(survivors).toHaveLength(2);

    const result = await teardown(target, options());

    expect(result.refused).toBeNull();
    expect(groupMembers(g.pgid)).toEqual([]);
    expect(result.signals[0]).toMatchObject({ signal: 'SIGTERM', target: `-${g.pgid}`, result: 'sent' });
    expect(outcomeOf(result, leader.pid).outcome).toBe('already-gone');
    for (const pid of survivors)
      expect(outcomeOf(result, pid), JSON.stringify(result, null, 1)).toMatchObject({
        outcome: 'exited-after-term',
      });
    expect(result.clean).toBe(true);
  });

  it('refuses a PGID that now belongs to another group, and leaves that group alone', async () => {
    const live = spawnGroup('sleep 600 & sleep 600 & echo ok > "$DIR/ready"; wait');
    await live.ready('ready');
    const dead = spawnGroup('sleep 600 & echo ok > "$DIR/ready"; wait');
    await dead.ready('ready');
    const deadTarget = targetFor(sampler, dead.pgid);
    process.kill(-dead.pgid, 'SIGKILL');
    await waitFor('the dead group to be gone', () => groupMembers(dead.pgid).length === 0);
    const liveBefore = liveMembers(sampler, live.pgid).map((r) => r.pid);
    const leader = readIdentity(sampler, live.pid);

    // The id of a dead group, carrying the PGID of a live one.
    const reused = {
      ...deadTarget,
      pgid: live.pgid,
      groupId: `${live.pgid}:${deadTarget.anchor.pid}:${deadTarget.anchor.startKey}`,
    };
    // The live leader's PID with another incarnation's start key: exactly what PID reuse looks like.
    const otherLife = { pid: leader.pid, startKey: leader.startKey - 1, command: 'bash' };
    const reincarnated = {
      ...reused,
      groupId: `${live.pgid}:${otherLife.pid}:${otherLife.startKey}`,
      anchor: { pid: otherLife.pid, startKey: otherLife.startKey },
      members: [otherLife],
    };

    for (const target of [reused, reincarnated]) {
      const result = await teardown(target, options());
      expect(result.refused).toMatch(/may have been reused/);
      expect(result.signals).toEqual([]);
      expect(result.clean).toBe(false);
    }
    for (const pid of liveBefore) expect(isAlive(pid)).toBe(true);
    expect(
      liveMembers(sampler, live.pgid)
        .map((r) => r.pid)
        .sort(),
    ).toEqual([...liveBefore].sort());
  });

  it('signals nothing in a dry run, and says what it would stop', async () => {
    const g = spawnGroup('sleep 600 & echo ok > "$DIR/ready"; wait');
    await g.ready('ready');
    const target = targetFor(sampler, g.pgid);

    const result = await teardown(target, options({ dryRun: true }));

    expect(result.signals).toEqual([]);
    expect(result.clean).toBe(false);
    expect(result.processes.map((p) => [p.pid, p.outcome, p.reason]).sort()).toEqual(
      target.members.map((m) => [m.pid, 'skipped', 'dry run']).sort(),
    );
    for (const m of target.members) expect(isAlive(m.pid)).toBe(true);
  });

  it('reports an unreaped zombie honestly instead of claiming success', async () => {
    // The child makes its own group; its parent (outside that group) execs sleep and never reaps it.
    const g = spawnGroup(
      `exec perl -e 'my $p = fork(); if ($p == 0) { setpgrp(0, 0); open(my $f, ">", "$ENV{DIR}/child"); print $f "$$\\n"; close $f; exec("sleep", "600"); } exec("sleep", "600");'`,
    );
    const child = Number(await g.ready('child'));
    trackGroup(child);
    await waitFor('child in its own group', () => sampler.readOne(child)?.pgid === child);

    const result = await teardown(targetFor(sampler, child), options({ graceMs: 200, killWaitMs: 200 }));

    expect(outcomeOf(result, child)).toMatchObject({ outcome: 'still-alive', state: 'Z' });
    expect(outcomeOf(result, child).reason).toMatch(/zombie/);
    expect(result.clean).toBe(false);
    expect(isAlive(g.pid)).toBe(true);
  });
});
