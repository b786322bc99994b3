import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { userInfo } from 'node:os';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { openIdentity } from '../../main/core/actions/identity-signal';
import { pidfdClose, pidfdOpen, pidfdSendSignal } from '../../main/core/os/pidfd';
import { teardown, type TeardownOptions } from '../../main/core/actions/stop-and-record';
import type { TeardownResult } from '../../shared/model';
import {
  AS_NOBODY,
  nobodyCannotRunCheckout,
  noteSkippedAsNobody,
  tempHomeForNobody,
} from '../support/as-nobody';
import { FakeAgent } from '../support/fake-agent';
import { groupMembers, isAlive, readProcStat } from '../support/proc';
import { cleanEnv, spawnGroup, trackGroup } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';
import { liveMembers, newSampler, readIdentity, targetFor } from './group-target';

const sampler = newSampler();
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const AS_CALLER = fileURLToPath(new URL('./fixtures/teardown-as-caller.ts', import.meta.url));

function options(extra: Partial<TeardownOptions> = {}): TeardownOptions {
  return { graceMs: 3000, mode: 'group', withEscaped: false, dryRun: false, sampler, ...extra };
}

const outcomeOf = (result: TeardownResult, pid: number) => result.processes.find((p) => p.pid === pid);

describe('teardown of a group that holds the agent', () => {
  it('refuses the group, and orphans-only stops just the orphan while the agent survives', async () => {
    const agent = await FakeAgent.start();
    const call = await agent.toolCall('sleep 600 & echo done', { detached: false });
    await call.exited();
    const orphan = await waitFor('the orphaned sleep', () =>
      liveMembers(sampler, agent.pid).find((r) => r.name === 'sleep' && r.ppid === 1),
    );
    const target = targetFor(sampler, agent.pid, {
      containsAgent: true,
      orphans: [readIdentity(sampler, orphan.pid)],
    });

    const plain = await teardown(target, options());
    expect(plain.refused).toMatch(/agent.*orphans-only/);
    expect(plain.signals).toEqual([]);
    expect(isAlive(orphan.pid)).toBe(true);

    const result = await teardown(target, options({ mode: 'orphans-only' }));
    expect(result.refused).toBeNull();
    expect(result.clean).toBe(true);
    expect(result.signals).toEqual([
      expect.objectContaining({
        signal: 'SIGTERM',
        target: `${orphan.pid}@${orphan.startKey}`,
        result: 'sent',
      }),
    ]);
    expect(outcomeOf(result, orphan.pid)).toMatchObject({ outcome: 'exited-after-term', endedBy: 'SIGTERM' });
    expect(outcomeOf(result, agent.pid)).toMatchObject({ outcome: 'skipped', reason: /not an orphan/ });
    expect(isAlive(orphan.pid)).toBe(false);
    expect(isAlive(agent.pid)).toBe(true);
  });

  it('orphans-only escalates to SIGKILL through the pidfd for an orphan that ignores SIGTERM', async () => {
    // The leader exits, so the orphan's parent becomes init (tini), which reaps it once it dies.
    const g = spawnGroup(
      `(trap '' TERM; echo $BASHPID > "$DIR/orphan"; exec sleep 600) & sleep 600 & echo $! > "$DIR/keeper"`,
    );
    const orphanPid = Number(await g.ready('orphan'));
    const keeper = Number(await g.ready('keeper'));
    await waitFor('the leader to exit', () => !isAlive(g.pid));
    await waitFor('the orphan to exec sleep', () => sampler.readOne(orphanPid)?.name === 'sleep');
    const orphan = readIdentity(sampler, orphanPid);
    const target = targetFor(sampler, g.pgid, { orphans: [orphan] });

    const result = await teardown(target, options({ mode: 'orphans-only', graceMs: 200 }));

    expect(result.signals.map((s) => [s.signal, s.target, s.result])).toEqual([
      ['SIGTERM', `${orphan.pid}@${orphan.startKey}`, 'sent'],
      ['SIGKILL', `${orphan.pid}@${orphan.startKey}`, 'sent'],
    ]);
    expect(outcomeOf(result, orphan.pid)).toMatchObject({ outcome: 'killed', endedBy: 'SIGKILL' });
    expect(result.clean).toBe(true);
    expect(isAlive(keeper)).toBe(true);
  });

  it('orphans-only never signals an orphan whose identity (start key) no longer matches', async () => {
    const g = spawnGroup('sleep 600 & echo $! > "$DIR/sleep"; wait');
    const sleepPid = Number(await g.ready('sleep'));
    const real = readIdentity(sampler, sleepPid);
    const stale = { ...real, startKey: real.startKey - 1 };
    const target = targetFor(sampler, g.pgid, { orphans: [stale] });

    const result = await teardown(target, options({ mode: 'orphans-only' }));

    expect(result.signals).toEqual([]);
    expect(result.processes.find((p) => p.startKey === stale.startKey)).toMatchObject({
      outcome: 'already-gone',
    });
    expect(isAlive(sleepPid)).toBe(true);
  });
});

describe('teardown of processes that escaped the group (setsid)', () => {
  async function groupWithEscapee() {
    const g = spawnGroup(
      'setsid sleep 600 & echo $! > "$DIR/escaped"; sleep 600 & echo ok > "$DIR/ready"; wait',
    );
    const escapedPid = Number(await g.ready('escaped'));
    trackGroup(escapedPid);
    await g.ready('ready');
    await waitFor('the escapee in its own session', () => sampler.readOne(escapedPid)?.sid === escapedPid);
    const escaped = readIdentity(sampler, escapedPid);
    return { g, escaped, target: targetFor(sampler, g.pgid, { escaped: [escaped] }) };
  }

  it('lists it as escaped-group and leaves it running without withEscaped', async () => {
    const { g, escaped, target } = await groupWithEscapee();

    const result = await teardown(target, options());

    expect(groupMembers(g.pgid)).toEqual([]);
    expect(result.clean).toBe(true);
    expect(outcomeOf(result, escaped.pid)).toMatchObject({
      outcome: 'escaped-group',
      reason: /with-escaped/,
    });
    expect(isAlive(escaped.pid)).toBe(true);
  });

  it('stops it by identity with withEscaped, and marks it as escaped', async () => {
    const { g, escaped, target } = await groupWithEscapee();

    const result = await teardown(target, options({ withEscaped: true }));

    expect(groupMembers(g.pgid)).toEqual([]);
    expect(isAlive(escaped.pid)).toBe(false);
    expect(result.clean).toBe(true);
    expect(result.signals.map((s) => [s.signal, s.target])).toEqual([
      ['SIGTERM', `-${g.pgid}`],
      ['SIGCONT', `-${g.pgid}`],
      ['SIGTERM', `${escaped.pid}@${escaped.startKey}`],
    ]);
    expect(outcomeOf(result, escaped.pid)).toMatchObject({
      outcome: 'exited-after-term',
      endedBy: 'SIGTERM',
      reason: expect.stringMatching(/^escaped the group/),
    });
  });
});

noteSkippedAsNobody('teardown-identity.test.ts');

describe("teardown of another user's group", () => {
  it.skipIf(nobodyCannotRunCheckout !== null)(
    'reports EPERM with the owner, signals nothing else, and the group lives on',
    async () => {
      const g = spawnGroup('sleep 600 & echo ok > "$DIR/ready"; wait');
      await g.ready('ready');
      const target = targetFor(sampler, g.pgid);

      const { stdout } = await promisify(execFile)(
        AS_NOBODY[0]!,
        [...AS_NOBODY.slice(1), process.execPath, '--import', 'tsx', AS_CALLER, JSON.stringify(target)],
        { cwd: ROOT, env: cleanEnv({ HOME: tempHomeForNobody() }), timeout: 30_000 },
      );
      const result = JSON.parse(stdout) as TeardownResult;

      expect(result.signals).toEqual([
        expect.objectContaining({ signal: 'SIGTERM', target: `-${g.pgid}`, result: 'EPERM' }),
      ]);
      expect(result.clean).toBe(false);
      expect(result.processes).toHaveLength(target.members.length);
      for (const p of result.processes) {
        expect(p).toMatchObject({
          outcome: 'not-permitted',
          owner: { uid: process.getuid!(), user: userInfo().username },
        });
      }
      for (const m of target.members) expect(isAlive(m.pid)).toBe(true);
    },
  );
});

describe('pidfd', () => {
  it('keeps pointing at its process: after that process is gone, signals fail with ESRCH', async () => {
    const g = spawnGroup('exec sleep 600');
    await waitFor('sleep to start', () => sampler.readOne(g.pid)?.name === 'sleep');
    const opened = pidfdOpen(g.pid);
    if (!('fd' in opened)) throw new Error(`pidfd_open failed: ${opened.error}`);
    try {
      expect(pidfdSendSignal(opened.fd, 'SIGKILL')).toBe('sent');
      // Gone and reaped: a zombie still accepts signals (they do nothing).
      await waitFor('sleep to be gone and reaped', () => readProcStat(g.pid) === null);
      expect(pidfdSendSignal(opened.fd, 'SIGKILL')).toBe('ESRCH');
    } finally {
      pidfdClose(opened.fd);
    }
  });

  it('cannot open a PID that does not exist', () => {
    expect(pidfdOpen(4_000_000)).toEqual({ error: 'ESRCH' });
  });
});

describe('identity signalling without pidfds (macOS, kernels before 5.3)', () => {
  const noPidfd = () => ({ error: 'unavailable' as const });

  it('signals the process while its identity holds, and reports ESRCH once it is gone', async () => {
    const g = spawnGroup('exec sleep 600');
    await waitFor('sleep to start', () => sampler.readOne(g.pid)?.name === 'sleep');
    const opened = openIdentity(sampler, readIdentity(sampler, g.pid), noPidfd);
    if (!('handle' in opened)) throw new Error(`not opened: ${JSON.stringify(opened)}`);
    expect(opened.handle.via).toBe('kill');
    expect(opened.handle.signal('SIGTERM')).toBe('sent');
    await waitFor('sleep to be gone and reaped', () => readProcStat(g.pid) === null);
    expect(opened.handle.signal('SIGKILL')).toBe('ESRCH');
  });

  it('refuses a stale identity (same PID, another start key) without signalling', async () => {
    const g = spawnGroup('exec sleep 600');
    await waitFor('sleep to start', () => sampler.readOne(g.pid)?.name === 'sleep');
    const real = readIdentity(sampler, g.pid);
    expect(openIdentity(sampler, { ...real, startKey: real.startKey + 1 }, noPidfd)).toEqual({ gone: true });
    expect(openIdentity(sampler, { ...real, startKey: real.startKey + 1 })).toEqual({ gone: true });
    expect(isAlive(g.pid)).toBe(true);
  });
});
