import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../../renderer/src/App';
import { FakeCorralApi, deferred } from './support/fake-corral-api';
import { makeGroup, makeProcess, makeSnapshot, makeTimeline } from './support/fixtures';
import { renderWithCorral } from './support/render-app';
import type { Snapshot } from '../../shared/model';

const orphaned = makeGroup({
  pgid: 100,
  sid: 90,
  agent: { name: 'claude-code', pid: 42 },
  flags: ['orphan', 'leaderless', 'runaway'],
  leaderAlive: false,
  leaderPid: 100,
  processes: [
    makeProcess({ pid: 101, pgid: 100, sid: 90, command: 'yes', cpuPercent: 99.5, flags: ['orphan'] }),
  ],
});
const devServer = makeGroup({
  pgid: 200,
  sid: 90,
  agent: { name: 'claude-code', pid: 42 },
  processes: [
    makeProcess({ pid: 200, pgid: 200, sid: 90, command: 'npm run dev', rssBytes: 300 * 1024 * 1024 }),
  ],
});
const shell = makeGroup({ pgid: 300, processes: [makeProcess({ pid: 300, command: 'bash' })] });

const snapshot = makeSnapshot(10, [orphaned, devServer, shell], {
  host: {
    hostname: 'devbox',
    platform: 'linux',
    cpuCount: 8,
    loadAverage: [1.5, 1.25, 1],
    totalMemBytes: 16 * 1024 ** 3,
    freeMemBytes: 8 * 1024 ** 3,
  },
});

function apiWith(initial: Snapshot | Promise<Snapshot>): FakeCorralApi {
  return new FakeCorralApi({
    'snapshot:get': () => initial,
    'timeline:get': ({ groupId }) => makeTimeline(groupId, []),
  });
}

function groupRows() {
  return screen.queryAllByTestId('group-row').map((row) => row.getAttribute('data-group-id'));
}

describe('overview', () => {
  it('shows flagged groups under their agent and session, with badges and the host', async () => {
    renderWithCorral(<App />, apiWith(snapshot));
    await screen.findByRole('table', { name: 'Process groups' });
    expect(groupRows()).toEqual([orphaned.id]);

    const agent = screen.getByTestId('agent');
    expect(agent.getAttribute('data-agent')).toBe('claude-code');
    expect(within(agent).getByTestId('session').getAttribute('data-sid')).toBe('90');
    // No agent session is known: the heading says so; the kernel's session number only in its tooltip,
    // never as "session 90" where "session" means the agent's (issue 47).
    const heading = within(agent).getByTestId('session');
    expect(heading.textContent).toBe('no agent session known');
    expect(heading.querySelector('td')!.getAttribute('title')).toBe('Unix session 90');
    const row = within(agent).getByRole('row', { name: /yes/ });
    expect(row.getAttribute('data-group-id')).toBe(orphaned.id);
    expect([...row.querySelectorAll('[data-flag]')].map((b) => b.textContent)).toEqual([
      'orphan',
      'shell gone', // the word for leaderless (shared/flags.ts)
      'runaway',
    ]);
    expect(within(row).getByTestId('group-cpu').textContent).toBe('99.5%');

    const host = screen.getByTestId('host-header');
    expect(host.textContent).toContain('devbox');
    expect(host.textContent).toContain('8 CPUs');
    expect(host.textContent).toContain('8.0 GiB / 16.0 GiB');
  });

  it('switches between flagged, agent and all groups and searches by command', async () => {
    renderWithCorral(<App />, apiWith(snapshot));
    await screen.findByRole('table', { name: 'Process groups' });

    fireEvent.click(screen.getByRole('radio', { name: 'All agent groups' }));
    expect(groupRows()).toEqual([orphaned.id, devServer.id]);

    fireEvent.click(screen.getByRole('radio', { name: 'Everything' }));
    expect(groupRows()).toEqual([orphaned.id, devServer.id, shell.id]);
    expect(screen.getAllByTestId('agent').map((a) => a.getAttribute('data-agent'))).toEqual([
      'claude-code',
      'none',
    ]);

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search by command or port' }), {
      target: { value: 'NPM' },
    });
    expect(groupRows()).toEqual([devServer.id]);
    expect(
      within(screen.getByRole('row', { name: /npm run dev/ })).getByTestId('group-memory').textContent,
    ).toBe('300 MiB');

    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'nothing-like-this' } });
    expect(screen.getByTestId('no-groups').textContent).toMatch(/No group matches/);
  });

  it('never says all clear before it has a snapshot, as when fetching it failed', async () => {
    const api = new FakeCorralApi({
      'snapshot:get': () => Promise.reject(new Error('snapshot:get: ELOOP: too many symbolic links')),
      'timeline:get': ({ groupId }) => makeTimeline(groupId, []),
    });
    renderWithCorral(<App />, api);
    await act(async () => {});
    expect(screen.getByTestId('no-snapshot').textContent).toMatch(/Waiting for the first look/);
    expect(screen.queryByTestId('no-groups')).toBeNull();
    expect(screen.queryByText(/All clear/)).toBeNull();
    act(() => api.push('snapshot', makeSnapshot(11, [orphaned])));
    expect(groupRows()).toEqual([orphaned.id]);
  });

  it('updates live CPU from pushes and ignores an initial fetch that resolves late', async () => {
    const initial = deferred<Snapshot>();
    const api = apiWith(initial.promise);
    renderWithCorral(<App />, api);

    const hotter = makeGroup({
      ...orphaned,
      cpuPercent: 180,
      processes: orphaned.processes,
    });
    act(() => api.push('snapshot', makeSnapshot(11, [{ ...hotter, cpuPercent: 180 }])));
    expect(screen.getByTestId('group-cpu').textContent).toBe('180.0%');

    // The first fetch answers after the push: it is older and must not win.
    await act(async () => initial.resolve(makeSnapshot(10, [orphaned, devServer])));
    expect(screen.getByTestId('group-cpu').textContent).toBe('180.0%');

    act(() => api.push('snapshot', makeSnapshot(12, [])));
    expect(groupRows()).toEqual([]);
  });

  it('selects a group and opens its timeline', async () => {
    const api = apiWith(snapshot);
    renderWithCorral(<App />, api);
    await screen.findByRole('table', { name: 'Process groups' });
    fireEvent.click(screen.getByRole('button', { name: 'Show timeline of group 100' }));
    expect(screen.getByRole('row', { name: /yes/ }).getAttribute('aria-selected')).toBe('true');
    const timeline = await screen.findByRole('region', { name: 'Group timeline' });
    expect(timeline.getAttribute('data-group-id')).toBe(orphaned.id);
    // The default range is the group's whole life: no lower bound is asked for.
    expect(api.requestsFor('timeline:get')[0]).toEqual({ groupId: orphaned.id });
  });

  it('says when a macOS group was attributed without its environment, and when memory is unknown', async () => {
    const hidden = makeGroup({
      pgid: 400,
      sid: 400,
      agent: { name: 'claude-code', pid: 42 },
      flags: ['orphan'],
      processes: [
        makeProcess({ pid: 400, command: '/bin/zsh -c source …', environReadable: false }),
        makeProcess({ pid: 401, pgid: 400, command: 'sudo yes', rssBytes: null, cpuSeconds: null }),
      ],
    });
    renderWithCorral(<App />, apiWith(makeSnapshot(11, [hidden])));
    await screen.findByRole('table', { name: 'Process groups' });
    expect(screen.getByTestId('env-hidden').textContent).toContain('env hidden');
    expect(screen.getByTestId('group-memory').textContent).toMatch(/\+ \?$/);
  });
});
