import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TimelineView } from '../../renderer/src/timeline/TimelineView';
import { createCorralStore } from '../../renderer/src/store/create-store';
import type { GroupTimeline, TimelineLane } from '../../shared/model';
import { FakeCorralApi } from './support/fake-corral-api';
import { T0, makeGroup, makeLane, makeSnapshot, makeTimeline } from './support/fixtures';
import { renderWithCorral } from './support/render-app';

const GROUP = '500:500:1';
const NOW = T0 + 1000; // sampledAt of snapshot seq 1

const leader = makeLane({
  pid: 500,
  ppid: 400,
  command: 'bash -c sleep 600 & echo done',
  startedAt: NOW - 240_000,
  exitedAt: NOW - 230_000,
  segments: [{ from: NOW - 240_000, to: NOW - 230_000, kind: 'running' }],
  markers: [
    { at: NOW - 230_000, kind: 'leader-exited', label: 'leader exited' },
    { at: NOW - 230_000, kind: 'exited', label: 'exited 0' },
  ],
});
const orphan = makeLane({
  pid: 501,
  ppid: 1,
  command: 'sleep 600',
  cpuSeconds: 123.4,
  startedAt: NOW - 239_000,
  segments: [
    { from: NOW - 239_000, to: NOW - 230_000, kind: 'running' },
    { from: NOW - 230_000, to: NOW - 120_000, kind: 'orphaned' },
    { from: NOW - 120_000, to: null, kind: 'runaway' },
  ],
  cpu: [
    [NOW - 200_000, 5],
    [NOW - 100_000, 99],
    [NOW - 1000, 100],
  ],
  markers: [
    { at: NOW - 230_000, kind: 'reparented', label: 'reparented to 1' },
    { at: NOW - 10_000, kind: 'signal', label: 'SIGTERM' },
  ],
});
const escaped = makeLane({
  pid: 502,
  pgid: 502,
  sid: 502,
  command: 'setsid node server.js',
  startedAt: NOW - 200_000,
  leftGroup: true,
  markers: [{ at: NOW - 199_000, kind: 'left-group', label: 'setsid' }],
});

function setup(timeline: (groupId: string) => GroupTimeline | null) {
  const api = new FakeCorralApi({
    'snapshot:get': () => makeSnapshot(1, [makeGroup({ pgid: 500, id: GROUP })]),
    'timeline:get': ({ groupId }) => timeline(groupId),
  });
  const store = createCorralStore();
  store.getState().selectGroup(GROUP);
  const view = renderWithCorral(<TimelineView />, api, store);
  return { api, ...view };
}

function lane(pid: number): HTMLElement {
  const found = screen.getAllByTestId('lane').find((l) => l.getAttribute('data-pid') === String(pid));
  if (!found) throw new Error(`no lane for pid ${pid}`);
  return found;
}

describe('group timeline', () => {
  it('draws one lane per process with segments, a CPU trace and markers', async () => {
    setup((id) => makeTimeline(id, [leader, orphan, escaped], NOW));
    await screen.findAllByTestId('lane');
    expect(screen.getAllByTestId('lane').map((l) => l.getAttribute('data-pid'))).toEqual([
      '500',
      '501',
      '502',
    ]);

    const kinds = (el: HTMLElement, testId: string) =>
      [...el.querySelectorAll(`[data-testid="${testId}"]`)].map((n) => n.getAttribute('data-kind'));
    expect(kinds(lane(501), 'segment')).toEqual(['running', 'orphaned', 'runaway']);
    expect(kinds(lane(501), 'marker')).toEqual(['reparented', 'signal']);
    expect(kinds(lane(500), 'marker')).toEqual(['leader-exited', 'exited']);
    expect(lane(500).getAttribute('data-exited')).toBe('true');

    const trace = lane(501).querySelector('[data-testid="cpu-trace"]');
    expect(trace?.tagName.toLowerCase()).toBe('polyline');
    expect(trace?.getAttribute('points')?.split(' ')).toHaveLength(3);

    // The orphaned stretch sits where its times fall on the 1 h axis.
    const orphaned = lane(501).querySelector('[data-kind="orphaned"]')!;
    const width = Number(lane(501).querySelector('svg')!.getAttribute('width'));
    const x = Number(orphaned.getAttribute('x'));
    expect(x).toBeCloseTo(((3_600_000 - 230_000) / 3_600_000) * width, 0);

    expect(lane(502).getAttribute('data-left-group')).toBe('true');
    expect(within(lane(502)).getByText('left group')).toBeTruthy();
    expect(kinds(lane(502), 'marker')).toEqual(['left-group']);
  });

  it('shows pid, ppid, PGID, SID, command and CPU-seconds on hover', async () => {
    setup((id) => makeTimeline(id, [leader, orphan], NOW));
    await screen.findAllByTestId('lane');
    expect(screen.queryByRole('tooltip')).toBeNull();
    fireEvent.mouseMove(lane(501), { clientX: 400, clientY: 40 });
    const tooltip = screen.getByRole('tooltip');
    const text = tooltip.textContent ?? '';
    expect(text).toContain('PID501');
    expect(text).toContain('PPID1');
    expect(text).toContain('PGID500');
    expect(text).toContain('SID500');
    expect(text).toContain('2.1 min');
    expect(text).toContain('sleep 600');
    fireEvent.mouseLeave(lane(501));
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it('refetches for a new range and after each snapshot, keeping lane elements mounted', async () => {
    let version = 0;
    const { api } = setup((id) => {
      version++;
      const busy: TimelineLane = { ...orphan, cpu: [...orphan.cpu, [NOW + version * 1000, 50]] };
      return makeTimeline(id, [leader, busy], NOW + version * 1000);
    });
    await screen.findAllByTestId('lane');
    const leaderLane = lane(500);

    fireEvent.click(screen.getByRole('button', { name: 'Last 5 min' }));
    expect(screen.getByRole('button', { name: 'Last 5 min' }).getAttribute('aria-pressed')).toBe('true');
    await act(async () => {});
    expect(api.requestsFor('timeline:get').at(-1)).toEqual({ groupId: GROUP, sinceMs: NOW - 300_000 });

    act(() => api.push('snapshot', makeSnapshot(2, [])));
    await act(async () => {});
    expect(api.requestsFor('timeline:get').length).toBeGreaterThanOrEqual(3);
    expect(lane(500)).toBe(leaderLane);

    fireEvent.click(screen.getByRole('button', { name: 'All' }));
    await act(async () => {});
    expect(api.requestsFor('timeline:get').at(-1)).toEqual({ groupId: GROUP });
  });

  it('zooms in and out with the buttons', async () => {
    setup((id) => makeTimeline(id, [orphan], NOW));
    await screen.findAllByTestId('lane');
    const segmentWidth = () =>
      Number(lane(501).querySelector('[data-kind="runaway"]')!.getAttribute('width'));
    const before = segmentWidth();
    expect(screen.getByRole('button', { name: 'Zoom out' })).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('button', { name: 'Zoom in' }));
    // Zoomed at the centre of a 1 h view, the last 2 minutes fall outside the visible half hour.
    expect(lane(501).querySelector('[data-kind="runaway"]')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Zoom out' }));
    expect(segmentWidth()).toBeCloseTo(before, 0);
    fireEvent.click(screen.getByRole('button', { name: 'Zoom in' }));
    fireEvent.click(screen.getByRole('button', { name: 'Reset zoom' }));
    expect(segmentWidth()).toBeCloseTo(before, 0);
  });

  it('zooms with the wheel over the axis', async () => {
    setup((id) => makeTimeline(id, [orphan], NOW));
    await screen.findAllByTestId('lane');
    const before = Number(lane(501).querySelector('[data-kind="runaway"]')!.getAttribute('width'));
    fireEvent.wheel(screen.getByTestId('time-axis'), { deltaY: -100, clientX: 10_000 });
    const after = Number(lane(501).querySelector('[data-kind="runaway"]')!.getAttribute('width'));
    expect(after).toBeGreaterThan(before);
    expect(screen.getByRole('button', { name: 'Reset zoom' })).toHaveProperty('disabled', false);
  });

  it('mounts only the lanes near the viewport for big groups', async () => {
    const many = Array.from({ length: 400 }, (_, i) => makeLane({ pid: 1000 + i, startedAt: NOW - 60_000 }));
    setup((id) => makeTimeline(id, many, NOW));
    await screen.findAllByTestId('lane');
    const mounted = screen.getAllByTestId('lane');
    expect(mounted.length).toBeGreaterThan(10);
    expect(mounted.length).toBeLessThan(60);
    expect(mounted[0]!.getAttribute('data-pid')).toBe('1000');

    const viewport = screen.getByRole('list', { name: 'Processes' }).parentElement!;
    viewport.scrollTop = 300 * 28;
    fireEvent.scroll(viewport);
    const pids = screen.getAllByTestId('lane').map((l) => Number(l.getAttribute('data-pid')));
    expect(pids).toContain(1300);
    expect(pids).not.toContain(1000);
  });

  it('says so when the core has no timeline', async () => {
    setup(() => null);
    expect(await screen.findByText('Corral has no timeline for this group.')).toBeTruthy();
  });

  it('reports a failed timeline request', async () => {
    setup(() => {
      throw new Error('group not found');
    });
    expect((await screen.findByRole('alert')).textContent).toContain('group not found');
  });
});
