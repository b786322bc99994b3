import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { GroupView, TeardownProcessOutcome, TeardownResult } from '../../shared/model';
import { groupMembers, readProcStat } from '../support/proc';
import { runCli } from '../support/run-cli';
import { spawnGroup, trackGroup } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';
import { nativeFixture } from './native/native-fixtures';

const NO_CONFIG = { CORRAL_CONFIG: '/nonexistent' };

async function psAll(): Promise<GroupView[]> {
  const result = await runCli(['ps', '--json', '--all'], { env: NO_CONFIG });
  expect(result.code, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as { groups: GroupView[] }).groups;
}

async function kill(group: GroupView, graceMs = 300): Promise<{ code: number; result: TeardownResult }> {
  const run = await runCli(['kill', group.id, '--json', '--grace-ms', String(graceMs)], { env: NO_CONFIG });
  return { code: run.code, result: JSON.parse(run.stdout) as TeardownResult };
}

function outcome(result: TeardownResult, pid: number): TeardownProcessOutcome {
  const found = result.processes.find((p) => p.pid === pid);
  if (!found) throw new Error(`no outcome for ${pid} in ${JSON.stringify(result.processes)}`);
  return found;
}

const stateOf = (pid: number): string | undefined => readProcStat(pid)?.state;

describe('zombies, stopped and uninterruptible processes', () => {
  it('corral ps --json --all shows states Z, T and D as the kernel reports them; corral kill says what happened to each', async () => {
    // Z: bash forks a short sleep, then becomes `sleep 600`, which never reaps it.
    const zombieGroup = spawnGroup('sleep 0.1 & echo $! > "$DIR/zombie"; exec sleep 600');
    const zombie = Number(await zombieGroup.ready('zombie'));
    // Z in a group of its own whose parent lives in another group and never reaps it.
    const reaperless = spawnGroup('setsid sleep 0.1 & echo $! > "$DIR/zombie"; exec sleep 600');
    const lonelyZombie = Number(await reaperless.ready('zombie'));
    trackGroup(lonelyZombie);
    // T: a whole group stopped by SIGSTOP to its PGID.
    const stopped = spawnGroup('sleep 600 & echo $! > "$DIR/child"; wait');
    const stoppedChild = Number(await stopped.ready('child'));
    process.kill(-stopped.pgid, 'SIGSTOP');
    // D: the parent of a vfork() child sleeps uninterruptibly (but killable) until the child exits.
    const vforkGroup = spawnGroup(`exec '${nativeFixture('vfork-hold')}' "$DIR/pid"`);
    const vforkParent = Number(await vforkGroup.ready('pid'));

    await waitFor('a zombie in the group', () => stateOf(zombie) === 'Z');
    await waitFor('a zombie alone in its group', () => stateOf(lonelyZombie) === 'Z');
    await waitFor('the group stopped', () => stateOf(stopped.pid) === 'T' && stateOf(stoppedChild) === 'T');
    await waitFor('the vfork parent in state D', () => stateOf(vforkParent) === 'D');
    const vforkChild = Number(
      readFileSync(`/proc/${vforkParent}/task/${vforkParent}/children`, 'utf8').trim(),
    );
    expect(readProcStat(lonelyZombie)).toMatchObject({
      ppid: reaperless.pid,
      pgid: lonelyZombie,
      sid: lonelyZombie,
    });

    const groups = await psAll();
    const byPgid = (pgid: number): GroupView => {
      const g = groups.find((x) => x.pgid === pgid);
      if (!g) throw new Error(`group ${pgid} not listed`);
      return g;
    };
    const state = (pgid: number, pid: number): string | undefined =>
      byPgid(pgid).processes.find((p) => p.pid === pid)?.state;
    expect(state(zombieGroup.pgid, zombie)).toBe('Z');
    expect(state(zombieGroup.pgid, zombieGroup.pid)).toBe('S');
    expect(state(lonelyZombie, lonelyZombie)).toBe('Z');
    expect(byPgid(lonelyZombie).leaderAlive).toBe(false);
    expect(state(stopped.pgid, stopped.pid)).toBe('T');
    expect(state(stopped.pgid, stoppedChild)).toBe('T');
    expect(state(vforkGroup.pgid, vforkParent)).toBe('D');
    expect(state(vforkGroup.pgid, vforkChild)).toBe('S');

    // The zombie's parent is in its group: SIGTERM ends the parent, init reaps the zombie. The zombie
    // had exited before any signal, and is reported so.
    const z = await kill(byPgid(zombieGroup.pgid));
    expect(z.code).toBe(0);
    expect(z.result.clean).toBe(true);
    expect(outcome(z.result, zombieGroup.pid)).toMatchObject({
      outcome: 'exited-after-term',
      endedBy: 'SIGTERM',
    });
    expect(outcome(z.result, zombie).outcome).toBe('already-gone');

    // A zombie whose parent is outside the group cannot be removed by signalling the group: Corral
    // says so, names the parent, and does not claim the group is clean.
    const lonely = await kill(byPgid(lonelyZombie));
    expect(lonely.code).toBe(1);
    expect(lonely.result.clean).toBe(false);
    expect(outcome(lonely.result, lonelyZombie)).toMatchObject({ outcome: 'still-alive', state: 'Z' });
    expect(outcome(lonely.result, lonelyZombie).reason).toContain(`PID ${reaperless.pid}`);
    expect(stateOf(reaperless.pid)).toBe('S');

    // Stopped processes cannot act on SIGTERM until continued: SIGCONT follows it, and they exit on it.
    const t = await kill(byPgid(stopped.pgid));
    expect(t.code).toBe(0);
    expect(t.result.clean).toBe(true);
    expect(t.result.signals.map((s) => s.signal)).toEqual(['SIGTERM', 'SIGCONT']);
    for (const pid of [stopped.pid, stoppedChild]) {
      expect(outcome(t.result, pid)).toMatchObject({ outcome: 'exited-after-term', endedBy: 'SIGTERM' });
    }

    // State D here is killable: SIGTERM ends the vfork child, which releases the parent.
    const d = await kill(byPgid(vforkGroup.pgid));
    expect(d.code).toBe(0);
    expect(d.result.clean).toBe(true);
    expect(outcome(d.result, vforkParent).outcome).toBe('exited-after-term');
    expect(outcome(d.result, vforkChild).outcome).toBe('exited-after-term');

    for (const pgid of [zombieGroup.pgid, stopped.pgid, vforkGroup.pgid])
      expect(groupMembers(pgid)).toEqual([]);
  });
});
