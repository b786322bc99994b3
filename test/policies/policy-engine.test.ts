import { afterEach, describe, expect, it } from 'vitest';
import type { PolicyRule } from '../../shared/model';
import { FakeAgent } from '../support/fake-agent';
import { groupMembers, isAlive } from '../support/proc';
import { startHarness, type Harness } from '../support/service-harness';
import { waitFor } from '../support/wait-for';

let harness: Harness | null = null;
afterEach(async () => {
  await harness?.stop();
  harness = null;
});

const LOOP = 'until false; do :; done 2>/dev/null & sleep 0.3; echo placeholder';
const STOP_ORPHANED_LOOPS: PolicyRule = {
  name: 'stop-orphaned-loops',
  match: { flags: ['orphan'], agents: ['claude-code'] },
  action: 'stop',
  graceMs: 500,
};

/** The agent's tool call leaves a busy loop behind; resolves with the loop's pgid and pid. */
async function orphanedLoop(h: Harness): Promise<{ pgid: number; pid: number }> {
  const agent = await FakeAgent.start();
  const call = await agent.toolCall(LOOP);
  await call.exited();
  const orphaned = await h.next('orphaned', (e) => e.pgid === call.pid);
  return { pgid: call.pid, pid: orphaned.pid };
}

describe('policies on real processes', () => {
  it('observe mode: records the match once with executed false and leaves the loop running', async () => {
    harness = startHarness({
      policyMode: 'observe',
      policies: [STOP_ORPHANED_LOOPS],
    });
    const h = harness;
    const loop = await orphanedLoop(h);
    const matched = await h.next('policy-matched', (e) => e.pgid === loop.pgid);
    expect(matched.detail).toEqual({ policy: 'stop-orphaned-loops', action: 'stop', executed: false });
    expect(matched.agent?.name).toBe('claude-code');
    // Three more polls, each followed by the policies, and still nothing is signalled.
    let polls = 0;
    const unsubscribe = h.running.monitor.onPoll(() => polls++);
    await waitFor('three more polls', () => polls >= 3);
    unsubscribe();
    expect(isAlive(loop.pid)).toBe(true);
    expect(h.events.filter((e) => e.type === 'signal-sent' && e.pgid === loop.pgid)).toEqual([]);
    expect(h.events.filter((e) => e.type === 'policy-matched' && e.pgid === loop.pgid)).toHaveLength(1);
    expect(h.events.some((e) => e.type === 'stopped-by-policy')).toBe(false);
  });

  it('observe mode: the match is stored (journal and incident note) and not recorded again after a restart', async () => {
    harness = startHarness({ policyMode: 'observe', policies: [STOP_ORPHANED_LOOPS] });
    const dataDir = harness.dataDir;
    const loop = await orphanedLoop(harness);
    const matched = await harness.next('policy-matched', (e) => e.pgid === loop.pgid);
    const note = { policy: 'stop-orphaned-loops', action: 'stop', executed: false, at: matched.at };
    const noted = await waitFor('the incident note', async () =>
      (await harness!.running.service.incidents()).find(
        (i) => i.groupId === matched.groupId && (i.policyNotes?.length ?? 0) > 0,
      ),
    );
    expect(noted.policyNotes).toEqual([note]);
    await harness.stop();

    // A new Corral on the same data directory: the loop still matches, and nothing is recorded twice.
    harness = startHarness({ policyMode: 'observe', policies: [STOP_ORPHANED_LOOPS] }, dataDir);
    const h = harness;
    const journal = await h.running.service.policyJournal({});
    expect(journal.map((e) => [e.type, e.groupId, e.detail])).toEqual([
      ['policy-matched', matched.groupId, matched.detail],
    ]);
    // Its leader gone, the group is known by another anchor now; its restored incident follows it.
    const again = await waitFor('the loop seen orphaned again', () =>
      h.running.service.snapshot().groups.find((g) => g.pgid === loop.pgid && g.flags.includes('orphan')),
    );
    let polls = 0;
    const unsubscribe = h.running.monitor.onPoll(() => polls++);
    await waitFor('three polls with the policies', () => polls >= 3);
    unsubscribe();
    expect(isAlive(loop.pid)).toBe(true);
    expect(h.events.filter((e) => e.type === 'policy-matched')).toEqual([]);
    expect(await h.running.service.policyJournal({})).toHaveLength(1);
    const incident = (await h.running.service.incidents()).find((i) => i.groupId === again.id);
    expect(incident?.policyNotes).toEqual([note]);
  });

  it('enforce mode: stops the loop through the teardown and records stopped-by-policy', async () => {
    harness = startHarness({ policyMode: 'enforce', policies: [STOP_ORPHANED_LOOPS] });
    const h = harness;
    const loop = await orphanedLoop(h);
    const stopped = await h.next('stopped-by-policy', (e) => e.pgid === loop.pgid);
    expect(stopped.detail).toEqual({ policy: 'stop-orphaned-loops', clean: true });
    const matched = h.events.find((e) => e.type === 'policy-matched' && e.pgid === loop.pgid);
    expect(matched?.detail).toEqual({ policy: 'stop-orphaned-loops', action: 'stop', executed: true });
    expect(groupMembers(loop.pgid)).toEqual([]);
    expect(isAlive(loop.pid)).toBe(false);
    // The teardown's own signals, as for a manual stop.
    const signals = h.events.filter((e) => e.type === 'signal-sent' && e.pgid === loop.pgid);
    expect(signals.map((e) => e.detail?.signal)).toContain('SIGTERM');
    // Recorded as the policy's, each signal once (the one stop path's recorder, core/stop-recorders.ts).
    expect(signals.map((e) => e.detail?.by)).toEqual(signals.map(() => 'policy stop-orphaned-loops'));
    expect(new Set(signals.map((e) => `${e.detail?.signal} ${e.at}`)).size).toBe(signals.length);
    const incident = await waitFor('the orphan incident closed stopped-by-policy', async () =>
      (await h.running.service.incidents()).find(
        (i) => i.pgid === loop.pgid && i.kind === 'orphan' && i.end !== 'open',
      ),
    );
    expect(incident.end).toBe('stopped-by-policy');
    expect(h.events.filter((e) => e.type === 'stopped-by-policy' && e.pgid === loop.pgid)).toHaveLength(1);
  });

  it("enforce mode never stops the group holding the agent's own process", async () => {
    harness = startHarness({
      policyMode: 'enforce',
      policies: [{ name: 'everything-claude', match: { agents: ['claude-code'] }, action: 'stop' }],
    });
    const h = harness;
    const agent = await FakeAgent.start();
    const matched = await h.next('policy-matched', (e) => e.pgid === agent.pid);
    expect(matched.detail?.policy).toBe('everything-claude');
    expect(matched.detail?.executed).toBe(false);
    expect(String(matched.detail?.reason)).toContain("the group holds the agent's own process");
    expect(isAlive(agent.pid)).toBe(true);
    expect(h.events.filter((e) => e.type === 'signal-sent' && e.pgid === agent.pid)).toEqual([]);
    expect(h.events.some((e) => e.type === 'stopped-by-policy')).toBe(false);
  });

  it('a rule switched off with enabled: false matches nothing', async () => {
    harness = startHarness({
      policyMode: 'enforce',
      policies: [
        { ...STOP_ORPHANED_LOOPS, enabled: false },
        { name: 'note-orphans', match: { flags: ['orphan'] }, action: 'notify' },
      ],
    });
    const h = harness;
    const loop = await orphanedLoop(h);
    const noted = await h.next('policy-matched', (e) => e.pgid === loop.pgid);
    expect(noted.detail).toEqual({ policy: 'note-orphans', action: 'notify', executed: true });
    expect(isAlive(loop.pid)).toBe(true);
    expect(h.events.filter((e) => e.type === 'policy-matched' && e.pgid === loop.pgid)).toHaveLength(1);
  });
});
