import { describe, expect, it } from 'vitest';
import { createCorralStore } from '../../renderer/src/store/create-store';
import { groupCommand, groupTree, visibleGroups } from '../../renderer/src/store/selectors';
import { reuseUnchangedLanes } from '../../renderer/src/timeline/lane-identity';
import { followLocationGroup, groupFromHash } from '../../renderer/src/sync/location-group';
import type { CorralApi, SnapshotDelta } from '../../shared/contract';
import type { GroupView, TeardownResult } from '../../shared/model';
import { connectStore } from '../../renderer/src/sync/connect-store';
import { T0, makeGroup, makeLane, makeProcess, makeSnapshot, makeTimeline } from './support/fixtures';

function teardownResult(groupId: string, overrides: Partial<TeardownResult> = {}): TeardownResult {
  return {
    groupId,
    pgid: 500,
    mode: 'group',
    dryRun: false,
    refused: null,
    startedAt: T0,
    finishedAt: T0,
    signals: [],
    processes: [],
    clean: false,
    ...overrides,
  };
}

describe('snapshot slice', () => {
  it('keeps the newest snapshot and drops older or equal sequence numbers', () => {
    const store = createCorralStore();
    const a = makeGroup({ pgid: 100 });
    const b = makeGroup({ pgid: 200 });
    store.getState().receiveSnapshot(makeSnapshot(5, [a, b]));
    store.getState().receiveSnapshot(makeSnapshot(3, [a]));
    expect(store.getState().snapshot?.seq).toBe(5);
    store.getState().receiveSnapshot(makeSnapshot(5, [a]));
    expect(store.getState().snapshot?.groups).toHaveLength(2);
    store.getState().receiveSnapshot(makeSnapshot(6, [b]));
    expect(store.getState().snapshot?.seq).toBe(6);
  });

  it('replaces the group index instead of mutating it', () => {
    const store = createCorralStore();
    const a = makeGroup({ pgid: 100 });
    store.getState().receiveSnapshot(makeSnapshot(1, [a]));
    const first = store.getState().groupsById;
    expect(first.get(a.id)).toBe(a);
    store.getState().receiveSnapshot(makeSnapshot(2, []));
    expect(store.getState().groupsById).not.toBe(first);
    expect(first.size).toBe(1);
    expect(store.getState().groupsById.size).toBe(0);
  });
});

describe('snapshot deltas in the store', () => {
  const delta = (
    seq: number,
    baseSeq: number,
    groups: GroupView[],
    removed: string[] = [],
  ): SnapshotDelta => ({
    seq,
    baseSeq,
    sampledAt: T0 + seq * 1000,
    groups,
    removed,
  });

  it('applies a delta on the snapshot it follows: changed groups replaced, new ones added, removed ones gone', () => {
    const store = createCorralStore();
    const a = makeGroup({ pgid: 100 });
    const b = makeGroup({ pgid: 200 });
    const c = makeGroup({ pgid: 300 });
    store.getState().receiveSnapshot(makeSnapshot(1, [a, b]));
    const heldB = store.getState().groupsById.get(b.id);
    const busierA = { ...a, cpuPercent: 50 };
    expect(store.getState().receiveSnapshotDelta(delta(2, 1, [busierA, c], []))).toBe(true);
    expect(store.getState().snapshot?.seq).toBe(2);
    expect(store.getState().groupsById.get(a.id)?.cpuPercent).toBe(50);
    // An unchanged group keeps its object, so its memoized row does not render again.
    expect(store.getState().groupsById.get(b.id)).toBe(heldB);
    expect(store.getState().receiveSnapshotDelta(delta(3, 2, [], [b.id]))).toBe(true);
    expect(store.getState().snapshot?.groups.map((g) => g.pgid)).toEqual([100, 300]);
    expect(store.getState().groupsById.has(b.id)).toBe(false);
  });

  it('refuses a delta that does not follow the snapshot held, and ignores one it already has', () => {
    const store = createCorralStore();
    const a = makeGroup({ pgid: 100 });
    expect(store.getState().receiveSnapshotDelta(delta(2, 1, [a]))).toBe(false);
    store.getState().receiveSnapshot(makeSnapshot(5, [a]));
    expect(store.getState().receiveSnapshotDelta(delta(7, 6, [], [a.id]))).toBe(false);
    expect(store.getState().receiveSnapshotDelta(delta(5, 4, [], [a.id]))).toBe(true);
    expect(store.getState().snapshot?.seq).toBe(5);
    expect(store.getState().groupsById.has(a.id)).toBe(true);
  });

  it('a whole snapshot keeps the objects of groups that did not change', () => {
    const store = createCorralStore();
    const a = makeGroup({ pgid: 100 });
    const b = makeGroup({ pgid: 200 });
    store.getState().receiveSnapshot(makeSnapshot(1, [a, b]));
    store
      .getState()
      .receiveSnapshot(makeSnapshot(2, [structuredClone(a), { ...b, rssBytes: b.rssBytes + 1 }]));
    expect(store.getState().groupsById.get(a.id)).toBe(a);
    expect(store.getState().groupsById.get(b.id)).not.toBe(b);
  });

  it('connectStore fetches the whole snapshot again when a delta does not follow, then applies the next ones', async () => {
    const store = createCorralStore();
    const a = makeGroup({ pgid: 100 });
    const b = makeGroup({ pgid: 200 });
    const listeners = new Map<string, (payload: unknown) => void>();
    let fetches = 0;
    const api = {
      on: (channel: string, listener: (payload: unknown) => void) => {
        listeners.set(channel, listener);
        return () => listeners.delete(channel);
      },
      request: async () => {
        fetches++;
        return makeSnapshot(fetches === 1 ? 1 : 4, fetches === 1 ? [a] : [a, b]);
      },
    } as unknown as CorralApi;
    connectStore(api, store);
    await Promise.resolve();
    expect(store.getState().snapshot?.seq).toBe(1);
    listeners.get('snapshot:delta')!(delta(4, 3, [b]));
    expect(fetches).toBe(2);
    await Promise.resolve();
    expect(store.getState().snapshot?.seq).toBe(4);
    listeners.get('snapshot:delta')!(delta(5, 4, [], [a.id]));
    expect([...store.getState().groupsById.keys()]).toEqual([b.id]);
    expect(fetches).toBe(2);
  });
});

describe('group selectors', () => {
  const orphan = makeGroup({
    pgid: 100,
    flags: ['orphan'],
    agent: { name: 'claude-code', pid: 42 },
    sid: 100,
    processes: [makeProcess({ pid: 101, pgid: 100, command: 'sleep 600', flags: ['orphan'] })],
  });
  const quiet = makeGroup({
    pgid: 200,
    agent: { name: 'claude-code', pid: 42 },
    sid: 100,
    processes: [makeProcess({ pid: 200, pgid: 200, command: 'npm run dev' })],
  });
  const codex = makeGroup({ pgid: 300, agent: { name: 'codex', pid: 77 }, sid: 300 });
  const plain = makeGroup({ pgid: 400, processes: [makeProcess({ pid: 400, command: 'vim notes.txt' })] });
  const all = [plain, codex, quiet, orphan];

  it('filters flagged, agent-attributed or all groups', () => {
    expect(visibleGroups(all, 'flagged', '').map((g) => g.pgid)).toEqual([100]);
    expect(visibleGroups(all, 'agents', '').map((g) => g.pgid)).toEqual([300, 200, 100]);
    expect(visibleGroups(all, 'all', '')).toHaveLength(4);
  });

  it('searches any member command, ignoring case and surrounding spaces', () => {
    expect(visibleGroups(all, 'all', '  SLEEP ').map((g) => g.pgid)).toEqual([100]);
    expect(visibleGroups(all, 'all', 'npm run').map((g) => g.pgid)).toEqual([200]);
    expect(visibleGroups(all, 'flagged', 'npm')).toEqual([]);
  });

  it('nests groups under agents and sessions, unattributed last', () => {
    const tree = groupTree(all);
    expect(tree.map((a) => a.name)).toEqual(['claude-code', 'codex', null]);
    expect(tree[0]!.sessions).toHaveLength(1);
    expect(tree[0]!.sessions[0]!.groups.map((g) => g.pgid).sort()).toEqual([100, 200]);
  });

  it("shows the leader's command, or the oldest member's once the leader is gone", () => {
    const leaderless = makeGroup({
      pgid: 600,
      leaderPid: 600,
      leaderAlive: false,
      processes: [
        makeProcess({ pid: 602, command: 'second', startedAt: T0 }),
        makeProcess({ pid: 601, command: 'first', startedAt: T0 - 5000 }),
      ],
    });
    expect(groupCommand(leaderless)).toBe('first');
    expect(groupCommand(plain)).toBe('vim notes.txt');
  });
});

describe('timeline slice', () => {
  it('ignores an answer for a group that is no longer selected', () => {
    const store = createCorralStore();
    store.getState().selectGroup('b');
    store.getState().receiveTimeline('a', makeTimeline('a', []));
    expect(store.getState().timeline).toBeNull();
    store.getState().receiveTimeline('b', makeTimeline('b', []));
    expect(store.getState().timeline?.groupId).toBe('b');
    expect(store.getState().timelineFor).toBe('b');
  });

  it('reuses unchanged lane objects across refreshes', () => {
    const steady = makeLane({ pid: 1, cpu: [[T0, 5]] });
    const busy = makeLane({ pid: 2, cpu: [[T0, 50]] });
    const previous = makeTimeline('g', [steady, busy]);
    const next = makeTimeline('g', [
      makeLane({ pid: 1, cpu: [[T0, 5]] }),
      makeLane({
        pid: 2,
        cpu: [
          [T0, 50],
          [T0 + 1000, 60],
        ],
      }),
      makeLane({ pid: 3 }),
    ]);
    const merged = reuseUnchangedLanes(previous, next);
    expect(merged.lanes[0]).toBe(steady);
    expect(merged.lanes[1]).not.toBe(busy);
    expect(merged.lanes).toHaveLength(3);
    expect(
      reuseUnchangedLanes(
        previous,
        makeTimeline('g', [makeLane({ pid: 1, cpu: [[T0, 5]] }), makeLane({ pid: 2, cpu: [[T0, 50]] })]),
      ),
    ).toBe(previous);
  });
});

describe('teardown slice', () => {
  it('tracks progress until the final result, then ignores late progress', () => {
    const store = createCorralStore();
    const progress = teardownResult('g', {
      processes: [{ pid: 1, startKey: 1, command: 'x', outcome: 'killed' }],
    });
    store.getState().teardownProgress(progress);
    expect(store.getState().teardowns.has('g')).toBe(false);

    store.getState().teardownStarted('g');
    const before = store.getState().teardowns;
    store.getState().teardownProgress(progress);
    expect(store.getState().teardowns).not.toBe(before);
    expect(store.getState().teardowns.get('g')).toEqual({ status: 'running', result: progress, error: null });

    const final = teardownResult('g', { clean: true });
    store.getState().teardownFinished(final);
    store.getState().teardownProgress(progress);
    expect(store.getState().teardowns.get('g')?.result).toBe(final);
    expect(store.getState().teardowns.get('g')?.status).toBe('done');
  });

  it('keeps the last progress when the request fails', () => {
    const store = createCorralStore();
    const progress = teardownResult('g');
    store.getState().teardownStarted('g');
    store.getState().teardownProgress(progress);
    store.getState().teardownFailed('g', 'boom');
    expect(store.getState().teardowns.get('g')).toEqual({
      status: 'failed',
      result: progress,
      error: 'boom',
    });
  });
});

describe('group named in the URL', () => {
  it('reads #group=<id> and follows later changes', () => {
    expect(groupFromHash('#group=12%3A12%3A99')).toBe('12:12:99');
    expect(groupFromHash('#token=abc')).toBeNull();
    expect(groupFromHash('')).toBeNull();

    const store = createCorralStore();
    store.getState().setPage('settings');
    window.location.hash = 'group=7:7:1';
    const stop = followLocationGroup(window, store);
    expect(store.getState().selectedGroupId).toBe('7:7:1');
    expect(store.getState().page).toBe('overview');
    window.location.hash = 'group=8:8:1';
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    expect(store.getState().selectedGroupId).toBe('8:8:1');
    stop();
    window.location.hash = '';
  });
});
