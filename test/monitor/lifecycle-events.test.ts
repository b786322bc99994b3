import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeAgent } from '../support/fake-agent';
import { groupMembers } from '../support/proc';
import { startHarness, type Harness } from '../support/service-harness';
import { waitFor } from '../support/wait-for';

let harness: Harness | null = null;
afterEach(async () => {
  await harness?.stop();
  harness = null;
});

const HELD_BYTES = 30_000_000;

/** Resident bytes from /proc/<pid>/statm (test-side reader, independent of the sampler). */
function rssBytes(pid: number): number {
  const pages = Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]);
  return pages * 4096;
}

describe('runaway-cleared, signal-sent, and an incident ended by the user (real processes)', () => {
  it('a hot loop goes runaway and is cleared when it stops; stopping its group sends signal-sent events and ends its incident stopped-by-user, with its peak memory', async () => {
    harness = startHarness({ runaway: { cpuPercent: 10, windowSeconds: 1 }, teardown: { graceMs: 2000 } });
    const agent = await FakeAgent.start();
    // The loop holds 30 MB in a shell variable. At nice -20 (the tests run as root) it keeps its share of
    // a core on a machine loaded by other work, so crossing 10 % does not depend on the machine's load.
    const call = await agent.toolCall(
      `nice -n -20 bash -c 'x=$(head -c ${HELD_BYTES} /dev/zero | tr "\\\\0" a); until false; do :; done' & echo done`,
    );
    await call.exited();
    const runaway = await harness.next('runaway', (e) => e.pgid === call.pid, 30_000);

    // Reading the 30 MB burns CPU too: the loop may go runaway before it holds them all. It is stopped
    // only once it does, so the peak the incidents must show is there.
    await waitFor('the loop to hold its 30 MB', () => rssBytes(runaway.pid) >= HELD_BYTES);
    // Stopped, it burns nothing: below half the threshold for 2 s, the runaway clears.
    process.kill(runaway.pid, 'SIGSTOP');
    const cleared = await harness.next(
      'runaway-cleared',
      (e) => e.pid === runaway.pid && e.at > runaway.at,
      30_000,
    );
    expect(cleared.agent?.name).toBe('claude-code');
    expect(Number(cleared.detail?.cpuPercent)).toBeLessThan(5);
    // One leak, one incident: the runaway phase ends while the orphan keeps the incident open.
    const runawayIncident = await waitFor('the runaway phase of the incident ended', async () =>
      (await harness!.running.service.incidents()).find(
        (i) => i.pgid === call.pid && i.phases.runaway.some((span) => span.until !== null),
      ),
    );
    expect(runawayIncident.flags).toContain('runaway');
    expect(runawayIncident.end).toBe('open');
    expect(runawayIncident.peakRssBytes).toBeGreaterThanOrEqual(HELD_BYTES);

    const group = harness.running.service.snapshot().groups.find((g) => g.pgid === call.pid)!;
    const result = await harness.running.service.stopGroup({ groupId: group.id });
    expect(result.clean).toBe(true);
    expect(groupMembers(call.pid)).toEqual([]);
    const sent = harness.events.filter((e) => e.type === 'signal-sent' && e.groupId === group.id);
    expect(sent.map((e) => e.detail)).toEqual(
      result.signals.map((s) => ({
        signal: s.signal,
        target: s.target,
        result: s.result,
        by: 'you, in Corral',
      })),
    );
    expect(sent.map((e) => e.detail?.signal)).toEqual(['SIGTERM', 'SIGCONT']);

    const ended = await waitFor('the incident ended by the user', async () =>
      (await harness!.running.service.incidents()).find((i) => i.pgid === call.pid && i.end !== 'open'),
    );
    expect(ended.id).toBe(runawayIncident.id);
    expect(ended.end).toBe('stopped-by-user');
    expect(ended.flags).toEqual(expect.arrayContaining(['orphan', 'runaway']));
    expect(ended.peakRssBytes).toBeGreaterThanOrEqual(HELD_BYTES);
  });
});
