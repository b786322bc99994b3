// The decisions of "stop everything this session left", with a recording stand-in for the one stop path:
// which groups are handed to it, which are left alone and why. The real teardown is exercised against
// real processes in test/provenance/stop-session-request.test.ts.
import { describe, expect, it } from 'vitest';
import { stopPortListeners, stopSession } from '../../main/core/actions/stop-session';
import type { StopOutcome } from '../../main/core/actions/stop-and-record';
import type { GroupView, SessionRef, TeardownResult } from '../../shared/model';
import { makeGroup } from '../transport/fake-corral-service';

const session = (id: string): SessionRef => ({ id, source: 'env', project: '/p', agentAlive: true });
const proc = (pid: number, pgid: number, startKey: number) => ({
  pid,
  ppid: 1,
  pgid,
  sid: pgid,
  uid: 0,
  state: 'S',
  startedAt: 0,
  startKey,
  cpuPercent: 0,
  rssBytes: 0,
  command: `p${pid}`,
  flags: [],
  name: `p${pid}`,
  argv: [],
  tty: null,
  cpuSeconds: 0,
});
const group = (pgid: number, sessionId: string, extra: Partial<GroupView> = {}): GroupView =>
  makeGroup({
    id: `${pgid}:${pgid}:${pgid * 10}`,
    pgid,
    sid: pgid,
    leaderPid: pgid,
    session: session(sessionId),
    processes: [proc(pgid, pgid, pgid * 10)],
    ...extra,
  });

const A1 = group(10, 'sess-aaaa-1111');
// Leaderless: its leader (20) exited, so its id is anchored on its oldest member now.
const A2 = group(20, 'sess-aaaa-1111', {
  id: '20:21:210',
  leaderAlive: false,
  processes: [proc(21, 20, 210), proc(22, 20, 220)],
});
const AGENT = group(30, 'sess-aaaa-1111', { containsAgent: true });
const B1 = group(40, 'sess-aaab-2222');
const GROUPS = [A1, A2, AGENT, B1];

function recorder() {
  const asked: string[] = [];
  const stopOne = async (groupId: string): Promise<StopOutcome> => {
    asked.push(groupId);
    const g = GROUPS.find((x) => x.id === groupId)!;
    const result: TeardownResult = {
      groupId,
      pgid: g.pgid,
      mode: 'group',
      dryRun: false,
      refused: null,
      startedAt: 0,
      finishedAt: 1,
      signals: [],
      processes: [],
      clean: true,
    };
    return { refused: null, group: g, result };
  };
  return { asked, stopOne };
}

describe('stopSession', () => {
  it("hands every leftover of the session to the stop path, and never the agent's own group", async () => {
    const { asked, stopOne } = recorder();
    const r = await stopSession({ sessionId: 'sess-aaaa-1111' }, GROUPS, stopOne);
    expect(asked).toEqual([A1.id, A2.id]);
    expect(r.refused).toBeNull();
    expect(r.skipped).toEqual([{ groupId: AGENT.id, reason: "the agent's own group" }]);
    expect(r.outcomes.map((o) => [o.groupId, o.refused])).toEqual([
      [A1.id, null],
      [A2.id, null],
    ]);
  });

  it('refuses an ambiguous prefix, an unknown session and a session with nothing but its agent', async () => {
    const { asked, stopOne } = recorder();
    expect((await stopSession({ sessionId: 'sess-aaa' }, GROUPS, stopOne)).refused).toMatch(
      /more than one session/,
    );
    expect((await stopSession({ sessionId: 'sess-zzzz' }, GROUPS, stopOne)).refused).toMatch(
      /no live process group/,
    );
    expect((await stopSession({ sessionId: 'sess-aaaa-1111' }, [AGENT], stopOne)).refused).toMatch(
      /no leftover groups/,
    );
    expect(asked).toEqual([]);
  });

  it('resolves a unique prefix to the full id', async () => {
    const { asked, stopOne } = recorder();
    const r = await stopSession({ sessionId: 'sess-aaab' }, GROUPS, stopOne);
    expect(r.sessionId).toBe('sess-aaab-2222');
    expect(asked).toEqual([B1.id]);
  });

  it('stops only confirmed groups; a confirmed id that changed anchor is proven, a foreign one is not stopped', async () => {
    const { asked, stopOne } = recorder();
    // A2 was confirmed while its leader lived (id 20:20:200); the monitor remembers member 21 in it, so
    // the old id still proves to be the same group. Without that memory it cannot be proven.
    const remembered = (id: string) => (id === '20:20:200' ? [{ pid: 21, startKey: 210 }] : []);
    const unproven = await stopSession(
      { sessionId: 'sess-aaaa-1111', groupIds: ['20:20:200'] },
      GROUPS,
      stopOne,
    );
    expect(unproven.outcomes).toEqual([
      { groupId: '20:20:200', result: null, refused: expect.stringMatching(/cannot prove/) },
    ]);
    expect(asked).toEqual([]);
    const r = await stopSession(
      { sessionId: 'sess-aaaa-1111', groupIds: ['20:20:200', B1.id, '99:99:1'] },
      GROUPS,
      stopOne,
      remembered,
    );
    expect(asked).toEqual([A2.id]);
    expect(r.skipped).toContainEqual({
      groupId: A1.id,
      reason: 'not among the groups confirmed (it appeared after the list was shown)',
    });
    expect(r.outcomes).toEqual([
      expect.objectContaining({ groupId: A2.id, refused: null }),
      {
        groupId: B1.id,
        result: null,
        refused: `group ${B1.id} is no longer a leftover of session sess-aaaa-1111`,
      },
      { groupId: '99:99:1', result: null, refused: expect.stringMatching(/already gone/) },
    ]);
  });

  it('refuses as a whole when none of the confirmed groups is still a leftover', async () => {
    const { asked, stopOne } = recorder();
    const r = await stopSession({ sessionId: 'sess-aaaa-1111', groupIds: [] }, GROUPS, stopOne);
    expect(asked).toEqual([]);
    expect(r.refused).toMatch(/none of the confirmed groups/);
  });

  it('reports a group the stop path refused as its own outcome, without a teardown', async () => {
    const stopOne = async (): Promise<StopOutcome> => ({
      refused: { kind: 'already-gone', message: 'group is already gone' },
    });
    const r = await stopSession({ sessionId: 'sess-aaab-2222' }, GROUPS, stopOne);
    expect(r.outcomes).toEqual([{ groupId: B1.id, result: null, refused: 'group is already gone' }]);
  });
});

describe('stopPortListeners', () => {
  const listening = (g: GroupView, port: number, agent: GroupView['agent']): GroupView => ({
    ...g,
    agent,
    processes: g.processes.map((p) => ({ ...p, ports: [{ protocol: 'tcp', address: '127.0.0.1', port }] })),
  });
  const AGENTS = listening(A1, 3000, { name: 'claude-code', pid: 1 });
  const NOBODYS = listening(B1, 4000, null);
  const ON_PORTS = [AGENTS, NOBODYS, AGENT];

  it("hands the port's agent-started listener to the stop path, and refuses one no agent started unless anyOwner", async () => {
    const { asked, stopOne } = recorder();
    const own = { anyOwner: false, selfUid: 0 };
    const r = await stopPortListeners(3000, ON_PORTS, own, stopOne);
    expect(r.refused).toBeNull();
    expect(r.outcomes.map((o) => [o.groupId, o.refused])).toEqual([[AGENTS.id, null]]);
    expect((await stopPortListeners(4000, ON_PORTS, own, stopOne)).refused).toMatch(/--any-owner/);
    expect((await stopPortListeners(5000, ON_PORTS, own, stopOne)).refused).toMatch(/port 5000/);
    expect(asked).toEqual([AGENTS.id]);
    await stopPortListeners(4000, ON_PORTS, { anyOwner: true, selfUid: 0 }, stopOne);
    expect(asked).toEqual([AGENTS.id, NOBODYS.id]);
  });
});
