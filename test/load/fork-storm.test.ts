import { afterEach, describe, expect, it } from 'vitest';
import type { GroupView, TeardownResult } from '../../shared/model';
import { FakeAgent } from '../support/fake-agent';
import { allPids, readProcStat } from '../support/proc';
import { runCli } from '../support/run-cli';
import { startHarness, type Harness } from '../support/service-harness';
import { waitFor } from '../support/wait-for';

const FORKS = 1500;
const MAX_UNTIL_KILLED = 6000;
const NO_CONFIG = { CORRAL_CONFIG: '/nonexistent' };

/** A tool call that forks `n` long sleeps, at most 50 every tenth of a second (a few hundred a second). */
const stormCommand = (n: number): string =>
  `for ((i = 0; i < ${n}; i++)); do sleep 60 & if ((i % 50 == 49)); then sleep 0.1; fi; done; wait`;

let harness: Harness | null = null;
afterEach(async () => {
  await harness?.stop();
  harness = null;
});

const inGroup = (pgid: number): number => allPids().filter((pid) => readProcStat(pid)?.pgid === pgid).length;

describe('load: a fork storm under an agent', () => {
  it(`${FORKS} forks from one tool call: the monitor keeps up and attributes them, corral kill empties the group`, async () => {
    // The harness turns any monitor step error into a thrown error; errors.count is checked too.
    harness = startHarness({ pollIntervalMs: 250 });
    const agent = await FakeAgent.start();
    const call = await agent.toolCall(stormCommand(FORKS));

    const storm = await waitFor(
      'the monitor to see every fork',
      () => {
        const g = harness!.running.service.snapshot().groups.find((x) => x.pgid === call.pid);
        return g && g.processes.length === FORKS + 1 ? g : undefined;
      },
      { timeoutMs: 40_000 },
    );
    expect(storm.agent).toEqual({ name: 'claude-code', pid: agent.pid });
    const starts = storm.processes.map((p) => p.startedAt);
    const stormMs = Math.max(...starts) - Math.min(...starts);

    const started = harness.events.filter((e) => e.type === 'process-started' && e.pgid === call.pid);
    // Every fork, and the rate limiter's short sleeps too.
    expect(new Set(started.map((e) => e.pid)).size).toBeGreaterThanOrEqual(FORKS + 1);
    expect(started.filter((e) => e.agent?.name !== 'claude-code' || e.groupId !== storm.id)).toEqual([]);
    // Events arrived in separate monitor runs while the storm went on, not in one late batch: the
    // first was out before the last fork was born (how many runs depends on the machine's load).
    const batches = new Set(started.map((e) => e.at)).size;
    expect(batches).toBeGreaterThan(1);
    expect(Math.min(...started.map((e) => e.at))).toBeLessThan(Math.max(...starts));
    expect(harness.running.monitor.errors.count).toBe(0);

    const ps = await runCli(['ps', '--json'], { env: NO_CONFIG });
    expect(ps.code, ps.stderr).toBe(0);
    const listed = (JSON.parse(ps.stdout) as { groups: GroupView[] }).groups.find(
      (g) => g.pgid === call.pid,
    )!;
    expect(listed.agent?.name).toBe('claude-code');
    const kill = await runCli(['kill', listed.id, '--json', '--grace-ms', '3000'], { env: NO_CONFIG });
    expect(kill.code, kill.stderr).toBe(0);
    const result = JSON.parse(kill.stdout) as TeardownResult;
    expect(result.clean).toBe(true);
    expect(result.signals.length).toBeGreaterThan(0);
    expect(result.signals.filter((s) => s.target !== `-${call.pid}`)).toEqual([]);
    await waitFor('the storm group empty', () => inGroup(call.pid) === 0);
    await harness.next('group-ended', (e) => e.pgid === call.pid);
    expect(harness.running.monitor.errors.count).toBe(0);
    console.info(
      `fork storm: ${FORKS} forks in ${stormMs} ms (~${Math.round((FORKS * 1000) / Math.max(stormMs, 1))}/s), ` +
        `seen by the monitor in ${batches} separate runs; corral kill stopped ${result.processes.length} processes ` +
        `in ${result.finishedAt - result.startedAt} ms`,
    );
  }, 90_000);

  it('corral kill lands in the middle of a storm that forks until it is stopped: nothing escapes it', async () => {
    harness = startHarness({ pollIntervalMs: 250 });
    const agent = await FakeAgent.start();
    const call = await agent.toolCall(stormCommand(MAX_UNTIL_KILLED));
    await waitFor('the storm under way', () => {
      const g = harness!.running.service.snapshot().groups.find((x) => x.pgid === call.pid);
      return g !== undefined && g.processes.length >= 300;
    });
    const ps = await runCli(['ps', '--json'], { env: NO_CONFIG });
    expect(ps.code, ps.stderr).toBe(0);
    const listed = (JSON.parse(ps.stdout) as { groups: GroupView[] }).groups.find(
      (g) => g.pgid === call.pid,
    )!;
    const kill = await runCli(['kill', listed.id, '--json', '--grace-ms', '3000'], { env: NO_CONFIG });
    expect(kill.code, kill.stderr).toBe(0);
    const result = JSON.parse(kill.stdout) as TeardownResult;
    expect(result.clean).toBe(true);
    // The storm was still forking when the group was signalled.
    expect(result.processes.length).toBeLessThan(MAX_UNTIL_KILLED + 1);
    expect(result.processes.find((p) => p.pid === call.pid)?.outcome).toBe('exited-after-term');
    await waitFor('the storm group empty', () => inGroup(call.pid) === 0);
    await harness.next('group-ended', (e) => e.pgid === call.pid);
    expect(harness.running.monitor.errors.count).toBe(0);
    console.info(
      `fork storm stopped mid-way: ${result.processes.length} processes (of at most ${MAX_UNTIL_KILLED}) ` +
        `stopped in ${result.finishedAt - result.startedAt} ms`,
    );
  }, 90_000);
});
