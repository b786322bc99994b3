// The `session:stop` request against a real running service: a fake agent with a session id leaves two
// groups behind; both are stopped through the one stop path, the agent's own group is kept, and another
// session's leftover is not touched.
import { afterEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../main/transport/dispatch';
import type { StopSessionResult } from '../../shared/contract';
import type { GroupView } from '../../shared/model';
import { FakeAgent } from '../support/fake-agent';
import { groupMembers, isAlive, readProcStat } from '../support/proc';
import { startHarness, type Harness } from '../support/service-harness';
import { waitFor } from '../support/wait-for';

let harness: Harness | null = null;
afterEach(async () => {
  await harness?.stop();
  harness = null;
});

const markers = (session: string) => ({
  CLAUDECODE: '1',
  CLAUDE_CODE_SESSION_ID: session,
  CLAUDE_PID: '$PID',
});

function sessionGroups(h: Harness, session: string): GroupView[] {
  return h.running.service.snapshot().groups.filter((g) => g.session?.id === session);
}

describe('session:stop on a running service', () => {
  it("stops every group the session left, one outcome each, keeps the agent's own group and other sessions", async () => {
    harness = startHarness({ teardown: { graceMs: 2000 } });
    const h = harness;
    const a = await FakeAgent.start({ markers: markers('sess-ui-stop-aaaa') });
    const b = await FakeAgent.start({ markers: markers('sess-ui-stop-bbbb') });
    const a1 = await a.toolCall('sleep 600 & echo ok');
    const a2 = await a.toolCall('sleep 600 & sleep 600 & echo ok');
    const b1 = await b.toolCall('sleep 600 & echo ok');
    for (const c of [a1, a2, b1]) await c.exited();
    await waitFor('wrappers gone', () => [a1, a2, b1].every((c) => readProcStat(c.pid) === null));
    await waitFor('both leftovers and the agent seen with their session', () => {
      const pgids = sessionGroups(h, 'sess-ui-stop-aaaa').map((g) => g.pgid);
      return [a.pid, a1.pid, a2.pid].every((p) => pgids.includes(p));
    });
    const agentGroup = sessionGroups(h, 'sess-ui-stop-aaaa').find((g) => g.pgid === a.pid)!;
    expect(agentGroup.containsAgent).toBe(true);

    const dry = await dispatch(h.running.service, 'session:stop', {
      sessionId: 'sess-ui-stop-aaaa',
      dryRun: true,
    });
    expect(dry.ok).toBe(true);
    const dryResult = (dry as { payload: StopSessionResult }).payload;
    expect(dryResult.outcomes.map((o) => o.result?.pgid).sort()).toEqual([a1.pid, a2.pid].sort());
    expect(dryResult.outcomes.every((o) => o.result?.signals.length === 0)).toBe(true);
    expect(groupMembers(a1.pid)).toHaveLength(1);

    const progressed = new Set<number>();
    // A prefix of 8+ characters names the session, as the UI's short id does.
    const done = await dispatch(
      h.running.service,
      'session:stop',
      { sessionId: 'sess-ui-stop-a' },
      (partial) => progressed.add(partial.pgid),
    );
    expect(done.ok).toBe(true);
    const result = (done as { payload: StopSessionResult }).payload;
    expect(result.sessionId).toBe('sess-ui-stop-aaaa');
    expect(result.refused).toBeNull();
    expect(result.skipped).toEqual([{ groupId: agentGroup.id, reason: "the agent's own group" }]);
    expect(result.outcomes.map((o) => o.result?.pgid).sort()).toEqual([a1.pid, a2.pid].sort());
    expect(result.outcomes.every((o) => o.refused === null && o.result?.clean)).toBe(true);
    expect([...progressed].sort()).toEqual([a1.pid, a2.pid].sort());
    expect(groupMembers(a1.pid)).toEqual([]);
    expect(groupMembers(a2.pid)).toEqual([]);
    expect(isAlive(a.pid)).toBe(true);
    expect(groupMembers(b1.pid)).toHaveLength(1);

    // Nothing left to stop: refused as a whole, nothing signalled. (Once its tool calls are gone the
    // agent's own group may no longer carry the session id, hence either refusal.)
    await waitFor('the stopped groups gone from the view', () =>
      sessionGroups(h, 'sess-ui-stop-aaaa').every((g) => g.containsAgent),
    );
    const again = await dispatch(h.running.service, 'session:stop', { sessionId: 'sess-ui-stop-aaaa' });
    expect(again).toMatchObject({
      ok: true,
      payload: { refused: expect.stringMatching(/no leftover groups|no live process group/) },
    });
    expect(isAlive(a.pid)).toBe(true);
  });

  it('stops only the groups the user confirmed, and says why the others were left', async () => {
    harness = startHarness({ teardown: { graceMs: 2000 } });
    const h = harness;
    const a = await FakeAgent.start({ markers: markers('sess-ui-confirm-1') });
    const shown = await a.toolCall('sleep 600 & echo ok');
    await shown.exited();
    await waitFor('the wrapper gone', () => readProcStat(shown.pid) === null);
    // The list is confirmed as the user saw it: the leftover, its shell gone, only the sleep in it.
    await waitFor('the first leftover seen without its shell', () =>
      sessionGroups(h, 'sess-ui-confirm-1').find(
        (g) => g.pgid === shown.pid && g.processes.every((p) => p.pid !== shown.pid),
      ),
    );
    const confirmed = sessionGroups(h, 'sess-ui-confirm-1').find((g) => g.pgid === shown.pid)!;
    // Born after the confirmation was shown: not in the list the user saw.
    const later = await a.toolCall('sleep 600 & echo ok');
    await later.exited();
    await waitFor('the later leftover seen', () =>
      sessionGroups(h, 'sess-ui-confirm-1').find((g) => g.pgid === later.pid),
    );

    const done = await dispatch(h.running.service, 'session:stop', {
      sessionId: 'sess-ui-confirm-1',
      groupIds: [confirmed.id, '999999:999999:1'],
    });
    const result = (done as { payload: StopSessionResult }).payload;
    expect(result.outcomes.map((o) => o.groupId)).toEqual([confirmed.id, '999999:999999:1']);
    expect(result.outcomes[0]).toMatchObject({ refused: null, result: { clean: true } });
    expect(result.outcomes[1]).toMatchObject({
      result: null,
      refused: expect.stringMatching(/already gone/),
    });
    expect(result.skipped.map((s) => s.reason)).toEqual(
      expect.arrayContaining([expect.stringMatching(/not among the groups confirmed/)]),
    );
    expect(groupMembers(shown.pid)).toEqual([]);
    expect(groupMembers(later.pid)).toHaveLength(1);
    expect(isAlive(a.pid)).toBe(true);
  });
});
