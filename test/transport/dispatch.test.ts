import { describe, expect, it } from 'vitest';
import { dispatch } from '../../main/transport/dispatch';
import type { StopSessionResult } from '../../shared/contract';
import type { TeardownResult } from '../../shared/model';
import { groupMembers } from '../support/proc';
import { spawnedGroupView } from '../actions/group-target';
import { FakeCorralService, KNOWN_GROUP_ID, makeGroup } from './fake-corral-service';

describe('dispatch', () => {
  it('maps each channel to its service call', async () => {
    const service = new FakeCorralService();
    expect(await dispatch(service, 'snapshot:get', undefined)).toEqual({
      ok: true,
      payload: service.current,
    });
    await dispatch(service, 'timeline:get', { groupId: KNOWN_GROUP_ID, sinceMs: 5 });
    await dispatch(service, 'incidents:list', { limit: 3 });
    await dispatch(service, 'settings:get', undefined);
    await dispatch(service, 'settings:set', { pollIntervalMs: 500 });
    expect(service.calls).toEqual([
      { method: 'snapshot', args: [] },
      { method: 'timeline', args: [KNOWN_GROUP_ID, 5] },
      { method: 'incidents', args: [{ limit: 3 }] },
      { method: 'settings', args: [] },
      { method: 'updateSettings', args: [{ pollIntervalMs: 500 }] },
    ]);
  });

  it('stops a group by the id the service reported, and forwards its progress', async () => {
    const { leftover, view } = await spawnedGroupView();
    const service = new FakeCorralService();
    service.current = { seq: 2, sampledAt: 1, groups: [view] };
    const progress: TeardownResult[] = [];
    const result = await dispatch(service, 'group:stop', { groupId: view.id }, (p) => progress.push(p));
    expect(result).toMatchObject({ ok: true, payload: { groupId: view.id, refused: null, clean: true } });
    const stopped = (result as { payload: TeardownResult }).payload;
    expect(stopped.signals.map((s) => [s.signal, s.target])).toEqual([
      ['SIGTERM', `-${leftover.pgid}`],
      ['SIGCONT', `-${leftover.pgid}`],
    ]);
    expect(groupMembers(leftover.pgid)).toEqual([]);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((p) => p.groupId === view.id)).toBe(true);
  });

  it("stops a session by its id prefix: every group of it but the agent's, one outcome per group", async () => {
    // The leftover is a real process group; the agent's and the other session's are never signalled.
    const session = { id: 'sess-dispatch-1', source: 'env' as const, project: '/p/shop', agentAlive: true };
    const other = { ...session, id: 'sess-other-2' };
    const { leftover, view: real } = await spawnedGroupView({ session });
    const { id, pgid } = real;
    const service = new FakeCorralService();
    service.current = {
      seq: 2,
      sampledAt: 1,
      groups: [
        real,
        makeGroup({ id: '77:77:1', pgid: 77, session, containsAgent: true }),
        makeGroup({ id: '88:88:1', pgid: 88, session: other }),
      ],
    };
    const progress: TeardownResult[] = [];
    const result = await dispatch(service, 'session:stop', { sessionId: 'sess-dispatch' }, (p) =>
      progress.push(p),
    );

    // The session, the skip and its reason are actions/stop-session.ts's and resolve-targets.ts's; the
    // outcome is the teardown's (actions/stop-and-record.ts): SIGTERM to the group, and it exited.
    expect(result).toEqual({
      ok: true,
      payload: {
        sessionId: 'sess-dispatch-1',
        refused: null,
        skipped: [{ groupId: '77:77:1', reason: "the agent's own group" }],
        outcomes: [
          { groupId: id, refused: null, result: expect.objectContaining({ refused: null, clean: true }) },
        ],
      },
    });
    const stopped = (result as { payload: StopSessionResult }).payload.outcomes[0]!.result!;
    expect(stopped.processes).toEqual([
      expect.objectContaining({ pid: leftover.pid, outcome: 'exited-after-term', endedBy: 'SIGTERM' }),
    ]);
    expect(stopped.signals.map((s) => [s.signal, s.target])).toEqual([
      ['SIGTERM', `-${pgid}`],
      ['SIGCONT', `-${pgid}`],
    ]);
    expect(groupMembers(pgid)).toEqual([]);
    // Progress reached the caller through the transport, and the recorder heard of the stop before its
    // signals, each signal once.
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((p) => p.groupId === id)).toBe(true);
    expect(service.recorded[0]).toEqual({ stopping: id });
    expect(service.recorded.slice(1).flatMap((r) => ('signals' in r ? r.signals : []))).toEqual(
      stopped.signals,
    );
    expect(service.calls).toEqual([{ method: 'stopSession', args: [{ sessionId: 'sess-dispatch' }] }]);
  });

  it('refuses a session with no leftover groups, signalling nothing', async () => {
    const service = new FakeCorralService();
    const session = { id: 'sess-only-agent', source: 'env' as const, project: '/p/shop', agentAlive: true };
    service.current = { seq: 2, sampledAt: 1, groups: [makeGroup({ session, containsAgent: true })] };
    const result = await dispatch(service, 'session:stop', { sessionId: 'sess-only-agent' });
    expect(result).toMatchObject({
      ok: true,
      payload: {
        refused: "session sess-only-agent has no leftover groups (the agent's own group)",
        outcomes: [],
      },
    });
    expect(service.calls.map((c) => c.method)).toEqual(['stopSession']);
  });

  it('turns an id the service never reported into an error, not a throw', async () => {
    const service = new FakeCorralService();
    const result = await dispatch(service, 'group:stop', { groupId: '4243:4243:987654' });
    expect(result).toEqual({
      ok: false,
      error: expect.stringMatching(/^group:stop: group 4243:4243:987654 is already gone/),
    });
  });

  it('never reaches the service with an invalid request', async () => {
    const service = new FakeCorralService();
    const result = await dispatch(service, 'group:stop', { groupId: 4242 });
    expect(result.ok).toBe(false);
    expect(service.calls).toEqual([]);
  });
});
