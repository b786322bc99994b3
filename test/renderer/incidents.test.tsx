import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../../renderer/src/App';
import { IncidentsPage } from '../../renderer/src/incidents/IncidentsPage';
import { cpuBurnByAgent, cpuBurnByDay, localDay } from '../../renderer/src/incidents/cpu-burn';
import type { Incident } from '../../shared/model';
import { FakeCorralApi } from './support/fake-corral-api';
import { makeIncident, makeTimeline } from './support/fixtures';
import { renderWithCorral } from './support/render-app';

// Local-time dates so day buckets do not depend on the machine's time zone.
const day1 = new Date(2026, 0, 5, 9, 30).getTime();
const day1Late = new Date(2026, 0, 5, 23, 59).getTime();
const day2 = new Date(2026, 0, 6, 0, 1).getTime();

const incidents: Incident[] = [
  makeIncident({ id: 'a', agent: 'claude-code', openedAt: day1, cpuSeconds: 100 }),
  makeIncident({ id: 'b', agent: 'codex', openedAt: day1Late, cpuSeconds: 30.5 }),
  makeIncident({
    id: 'c',
    agent: 'claude-code',
    openedAt: day2,
    cpuSeconds: 7200,
    closedAt: null,
    end: 'open',
  }),
  makeIncident({ id: 'd', agent: null, openedAt: day2, cpuSeconds: 1 }),
];

describe('cpu burned', () => {
  it('sums per agent, most first', () => {
    expect(cpuBurnByAgent(incidents)).toEqual([
      { key: 'claude-code', cpuSeconds: 7300, incidents: 2 },
      { key: 'codex', cpuSeconds: 30.5, incidents: 1 },
      { key: 'unattributed', cpuSeconds: 1, incidents: 1 },
    ]);
  });

  it('sums per local day the incident opened, newest first', () => {
    expect(localDay(day1Late)).toBe('2026-01-05');
    expect(cpuBurnByDay(incidents)).toEqual([
      { key: '2026-01-06', cpuSeconds: 7201, incidents: 2 },
      { key: '2026-01-05', cpuSeconds: 130.5, incidents: 2 },
    ]);
    expect(cpuBurnByDay([])).toEqual([]);
  });
});

describe('incidents page', () => {
  it('lists incidents with totals and reloads when an incident opens', async () => {
    let list = incidents.slice(0, 2);
    const api = new FakeCorralApi({
      'snapshot:get': () => ({ seq: 1, sampledAt: 0, groups: [] }),
      'incidents:list': () => list,
    });
    renderWithCorral(<IncidentsPage />, api);
    const history = await screen.findByRole('table', { name: 'Incident history' });
    expect(within(history).getAllByRole('row')).toHaveLength(3);
    const byAgent = screen.getByTestId('burn-by-agent');
    expect(byAgent.querySelector('[data-key="claude-code"] [data-cpu-seconds]')?.textContent).toBe('1.7 min');
    expect(api.requestsFor('incidents:list')).toEqual([{ limit: 101, offset: 0 }]);

    list = incidents;
    await act(async () =>
      api.push('event', { type: 'incident-opened', at: day2, groupId: 'g', pid: 1, pgid: 1 }),
    );
    expect(within(screen.getByRole('table', { name: 'Incident history' })).getAllByRole('row')).toHaveLength(
      5,
    );
    expect(
      screen.getByTestId('burn-by-day').querySelector('[data-key="2026-01-06"] [data-cpu-seconds]')
        ?.textContent,
    ).toBe('2.0 h');
    expect(screen.getByRole('row', { name: /open/ }).getAttribute('data-incident-id')).toBe('c');
  });

  it('shows one row per leak with every flag it had, and says when the start was only noticed', async () => {
    const leak = makeIncident({
      id: 'leak',
      openedAt: day1,
      flags: ['orphan', 'leaderless', 'runaway'],
      openedAtSource: 'noticed',
    });
    const api = new FakeCorralApi({
      'snapshot:get': () => ({ seq: 1, sampledAt: 0, groups: [] }),
      'incidents:list': () => [leak],
    });
    renderWithCorral(<IncidentsPage />, api);
    const history = await screen.findByRole('table', { name: 'Incident history' });
    const row = within(history).getAllByRole('row')[1]!;
    // Every flag, by its term, in the one table's words (issue 47: the page showed the terms).
    const badges = [...row.querySelectorAll('.badge')];
    expect(badges.map((b) => b.getAttribute('data-flag'))).toEqual(['orphan', 'leaderless', 'runaway']);
    expect(badges.map((b) => b.textContent)).toEqual(['orphan', 'shell gone', 'runaway']);
    expect(row.textContent).toContain('(or earlier)');
  });

  it('shows an error when the history cannot be read', async () => {
    const api = new FakeCorralApi({
      'snapshot:get': () => ({ seq: 1, sampledAt: 0, groups: [] }),
      'incidents:list': () => Promise.reject(new Error('database locked')),
    });
    renderWithCorral(<IncidentsPage />, api);
    expect((await screen.findByRole('alert')).textContent).toBe('Could not load incidents: database locked');
  });

  it("links an incident to its group's timeline", async () => {
    const api = new FakeCorralApi({
      'snapshot:get': () => ({ seq: 1, sampledAt: 0, groups: [] }),
      'incidents:list': () => [makeIncident({ id: 'x', groupId: '4242:4242:7', pgid: 4242 })],
      'timeline:get': ({ groupId }) => makeTimeline(groupId, []),
    });
    renderWithCorral(<App />, api);
    fireEvent.click(screen.getByRole('button', { name: 'Incidents' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Show timeline of group 4242 (incident x)' }));
    const timeline = await screen.findByRole('region', { name: 'Group timeline' });
    expect(timeline.getAttribute('data-group-id')).toBe('4242:4242:7');
    expect(api.requestsFor('timeline:get')[0]).toEqual({ groupId: '4242:4242:7' });
  });
});
