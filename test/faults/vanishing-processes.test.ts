import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentMatcher } from '../../main/core/analysis/agent-matcher';
import { BUILTIN_SIGNATURES } from '../../main/core/analysis/signatures';
import { LinuxSampler } from '../../main/core/sampling/linux/linux-sampler';
import { FakeAgent } from '../support/fake-agent';
import { allPids, readProcStat } from '../support/proc';
import { startHarness, type Harness } from '../support/service-harness';
import { spawnGroup, tempDirForTest } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';
import { fanOutResult, nativeFixture } from './native/native-fixtures';

const GROUP_SIZE = 500;
const MIN_ROUNDS = 4;
const MAX_ROUNDS = 8;

/** Every process in the PGID, zombies included (a zombie still has a /proc entry to race with). */
function anyInGroup(pgid: number): boolean {
  return allPids().some((pid) => readProcStat(pid)?.pgid === pgid);
}

let harness: Harness | null = null;
afterEach(async () => {
  await harness?.stop();
  harness = null;
});

describe('processes vanishing while Corral reads them', () => {
  it(`LinuxSampler: a group of ${GROUP_SIZE} SIGKILLed by PGID mid-sample never surfaces an error`, async () => {
    const fanOut = nativeFixture('fan-out');
    const markers = new AgentMatcher(BUILTIN_SIGNATURES).markerKeys;
    let vanishedMidRead = 0;
    let killed = 0;
    let samples = 0;
    let rounds = 0;
    while (rounds < MAX_ROUNDS && (rounds < MIN_ROUNDS || vanishedMidRead === 0)) {
      rounds++;
      const group = spawnGroup(`exec '${fanOut}' ${GROUP_SIZE} "$DIR/ready"`);
      const { pids, error } = fanOutResult(await group.ready('ready'));
      expect(error).toBeNull();
      expect(pids).toHaveLength(GROUP_SIZE);
      // A fresh sampler has no cache: it opens stat, cmdline and environ of every process, so each
      // of the 501 dying processes offers three windows to vanish in.
      const sampler = new LinuxSampler({ markerKeys: markers });
      process.kill(-group.pgid, 'SIGKILL');
      killed += GROUP_SIZE + 1;
      const deadline = Date.now() + 10_000;
      while (anyInGroup(group.pgid)) {
        expect(Date.now(), `group ${group.pgid} to vanish`).toBeLessThan(deadline);
        const listed = sampler.listPids();
        const records = sampler.sampleSome(listed);
        vanishedMidRead += listed.length - records.length;
        const all = sampler.sampleAll();
        samples += 2;
        // The fan-out leader is this worker's child: its zombie is reaped only when the event loop runs.
        await new Promise((resolve) => setImmediate(resolve));
        for (const r of [...records, ...all]) {
          expect(
            Number.isSafeInteger(r.pid) && Number.isSafeInteger(r.pgid) && Number.isSafeInteger(r.startKey),
          ).toBe(true);
          if (pids.includes(r.pid)) {
            expect(r.name).toBe('fan-out');
            expect([group.pgid, -1, 0]).toContain(r.pgid);
          }
        }
      }
      expect(sampler.sampleAll().some((r) => r.pgid === group.pgid)).toBe(false);
    }
    console.info(
      `vanishing: ${killed} processes SIGKILLed in ${rounds} rounds of ${GROUP_SIZE + 1}; ${samples} samples taken ` +
        `while they died; ${vanishedMidRead} listed pids vanished before they could be read`,
    );
    expect(vanishedMidRead).toBeGreaterThan(0);
  });

  it('Monitor: a 500-process tool call killed by PGID leaves no stale group after the next sample', async () => {
    harness = startHarness({ pollIntervalMs: 200 });
    const fanOut = nativeFixture('fan-out');
    const agent = await FakeAgent.start();
    const readyDir = tempDirForTest('corral-vanish-');
    const call = await agent.toolCall(`exec '${fanOut}' ${GROUP_SIZE} '${readyDir}/ready'`);
    await waitFor('fan-out ready', () => {
      try {
        return fanOutResult(readFileSync(`${readyDir}/ready`, 'utf8')).pids.length === GROUP_SIZE;
      } catch {
        return false;
      }
    });
    const seen = await waitFor(
      'the monitor to see all 501 processes',
      () => {
        const g = harness!.running.service.snapshot().groups.find((x) => x.pgid === call.pid);
        return g && g.processes.length === GROUP_SIZE + 1 ? g : undefined;
      },
      { timeoutMs: 15_000 },
    );
    expect(seen.agent?.name).toBe('claude-code');

    process.kill(-call.pid, 'SIGKILL');
    await waitFor('every member gone from /proc, zombies included', () => !anyInGroup(call.pid));
    harness.running.monitor.poll();
    const after = harness.running.service.snapshot();
    expect(after.groups.find((g) => g.pgid === call.pid)).toBeUndefined();
    expect(harness.events.some((e) => e.type === 'group-ended' && e.groupId === seen.id)).toBe(true);
    const exited = harness.events.filter((e) => e.type === 'process-exited' && e.pgid === call.pid);
    expect(exited).toHaveLength(GROUP_SIZE + 1);
    expect(harness.running.monitor.errors.count).toBe(0);
  });
});
