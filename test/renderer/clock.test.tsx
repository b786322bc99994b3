// The core's clock in the page: set by each snapshot received, moved on by a ticker between them (the
// core pushes only when something changed), so ages and an open timeline move without a push.
import { act, screen } from '@testing-library/react';
import { Profiler, type ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Age } from '../../renderer/src/shared-ui/Age';
import { createCorralStore } from '../../renderer/src/store/create-store';
import { useCorral } from '../../renderer/src/store/store-context';
import { connectStore } from '../../renderer/src/sync/connect-store';
import { startTimelineSync } from '../../renderer/src/sync/timeline-sync';
import { FakeCorralApi } from './support/fake-corral-api';
import { T0, makeGroup, makeSnapshot, makeTimeline } from './support/fixtures';
import { renderWithCorral } from './support/render-app';

/** This machine's clock, an hour behind the core's (as a browser elsewhere may be). */
const LOCAL = T0 - 3_600_000;

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(LOCAL);
});

afterEach(() => {
  vi.useRealTimers();
});

const flush = () => act(async () => {});
const advance = (ms: number) => act(async () => void (await vi.advanceTimersByTimeAsync(ms)));

describe("the store's clock", () => {
  it('is set by each snapshot and delta received, and ticks on from the offset measured then', () => {
    const store = createCorralStore();
    store.getState().tick();
    expect(store.getState()).toMatchObject({ now: 0, clockOffsetMs: null });

    store.getState().receiveSnapshot(makeSnapshot(1, []));
    expect(store.getState()).toMatchObject({ now: T0 + 1000, clockOffsetMs: T0 + 1000 - LOCAL });
    vi.setSystemTime(LOCAL + 2500);
    store.getState().tick();
    expect(store.getState().now).toBe(T0 + 3500);

    // A delta sampled 10 s later, received 11 s later here: its time is taken, and the new offset.
    vi.setSystemTime(LOCAL + 11_000);
    const delta = { seq: 2, baseSeq: 1, sampledAt: T0 + 11_000, groups: [], removed: [] };
    expect(store.getState().receiveSnapshotDelta(delta)).toBe(true);
    expect(store.getState()).toMatchObject({ now: T0 + 11_000, clockOffsetMs: T0 - LOCAL });
  });

  it('does not move for a snapshot or delta it drops', () => {
    const store = createCorralStore();
    store.getState().receiveSnapshot(makeSnapshot(5, []));
    store.getState().receiveSnapshot(makeSnapshot(4, []));
    store.getState().receiveSnapshotDelta({ seq: 5, baseSeq: 4, sampledAt: 1, groups: [], removed: [] });
    expect(store.getState().now).toBe(T0 + 5000);
  });
});

describe('the ticker started with the store', () => {
  it('moves the clock once a second after the latest snapshot, and stops with the store', async () => {
    const api = new FakeCorralApi({ 'snapshot:get': () => makeSnapshot(1, []) });
    const store = createCorralStore();
    const disconnect = connectStore(api, store);
    await flush();
    expect(store.getState().now).toBe(T0 + 1000);
    await advance(700);
    // A push restarts the count: the next tick is a second after it.
    act(() => api.push('snapshot', makeSnapshot(2, [])));
    await advance(999);
    expect(store.getState().now).toBe(T0 + 2000);
    await advance(1);
    expect(store.getState().now).toBe(T0 + 3000);
    await advance(1000);
    expect(store.getState().now).toBe(T0 + 4000);

    disconnect();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('refetches the open timeline on each tick, and nothing while no group is open', async () => {
    const group = makeGroup({ pgid: 500 });
    const api = new FakeCorralApi({
      'snapshot:get': () => makeSnapshot(1, [group]),
      'timeline:get': ({ groupId }) => makeTimeline(groupId, []),
    });
    const store = createCorralStore();
    const stops = [connectStore(api, store), startTimelineSync(api, store)];
    await flush();
    await advance(3000);
    expect(api.requestsFor('timeline:get')).toEqual([]);

    store.getState().selectGroup(group.id);
    store.getState().setRange('5m');
    await flush();
    const before = api.requestsFor('timeline:get').length;
    await advance(1000);
    expect(api.requestsFor('timeline:get').slice(before)).toEqual([
      { groupId: group.id, sinceMs: store.getState().now - 300_000 },
    ]);
    stops.forEach((stop) => stop());
  });
});

describe('Age', () => {
  let rowRenders = 0;
  let ageRenders = 0;
  function Row({ children }: { children: ReactNode }) {
    rowRenders++;
    useCorral((s) => s.snapshot?.seq);
    return <p data-testid="age">{children}</p>;
  }

  it('counts on between pushes, rendering only when its text changes and never its row', async () => {
    // Started 2 s short of an hour before the snapshot's sample: from the hour on, an age reads in minutes.
    const api = new FakeCorralApi({ 'snapshot:get': () => makeSnapshot(1, [], { sampledAt: T0 }) });
    renderWithCorral(
      <Row>
        <Profiler id="age" onRender={() => ageRenders++}>
          <Age since={T0 - 3_598_000} />
        </Profiler>
      </Row>,
      api,
    );
    await flush();
    const age = () => screen.getByTestId('age').textContent;
    expect(age()).toBe('59m58s');
    [rowRenders, ageRenders] = [0, 0];

    await advance(1000);
    expect(age()).toBe('59m59s');
    await advance(1000);
    expect(age()).toBe('1h00m');
    expect([rowRenders, ageRenders]).toEqual([0, 2]);
    await advance(5000);
    expect(age()).toBe('1h00m');
    expect([rowRenders, ageRenders]).toEqual([0, 2]);
  });
});
