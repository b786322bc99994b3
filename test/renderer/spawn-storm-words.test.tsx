import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../../renderer/src/App';
import { IncidentsPage } from '../../renderer/src/incidents/IncidentsPage';
import type { SpawnStormFacts } from '../../shared/model';
import { FakeCorralApi } from './support/fake-corral-api';
import { makeGroup, makeIncident, makeProcess, makeSnapshot, makeTimeline } from './support/fixtures';
import { renderWithCorral } from './support/render-app';

const facts: SpawnStormFacts = {
  reason: 'birth-rate',
  birthsPerMinute: 14550,
  repeatsPerMinute: 2000,
  peakBirthsPerMinute: 15000,
  members: 2,
  peakMembers: 3,
  births: 1319,
  unseenBirths: 1083,
  repeated: [{ command: '/bin/true', count: 1200 }],
};

describe('spawn-storm in the UI', () => {
  it('says the rate in words on the group row; the term and reason are in the badge tooltip', async () => {
    const storm = makeGroup({
      pgid: 100,
      agent: { name: 'claude-code', pid: 42 },
      flags: ['spawn-storm'],
      spawnStorm: facts,
      processes: [makeProcess({ pid: 100, pgid: 100, command: 'bash -c while :; do /bin/true; done' })],
    });
    const api = new FakeCorralApi({
      'snapshot:get': () => makeSnapshot(1, [storm]),
      'timeline:get': ({ groupId }) => makeTimeline(groupId, []),
    });
    renderWithCorral(<App />, api);
    const row = await screen.findByTestId('group-row');
    expect(within(row).getByTestId('spawn-storm-words').textContent).toBe(
      'starts 14,550 processes a minute, mostly /bin/true',
    );
    const badge = row.querySelector('[data-flag="spawn-storm"]');
    expect(badge?.getAttribute('title')).toContain('(reason birth-rate)');
    expect(badge?.getAttribute('title')).toMatch(/^Spawn storm \(spawn-storm\)/);
  });

  it('shows an incident’s storm at its peak, with the repeated commands', async () => {
    const api = new FakeCorralApi({
      'snapshot:get': () => makeSnapshot(1, []),
      'incidents:list': () => [
        makeIncident({
          id: 's',
          kind: 'spawn-storm',
          flags: ['spawn-storm'],
          spawnStorm: { ...facts, endedAt: 1 },
        }),
      ],
    });
    renderWithCorral(<IncidentsPage />, api);
    const words = await screen.findByTestId('incident-spawn-storm');
    expect(words.textContent).toBe('started up to 15,000 processes a minute; /bin/true ×1,200');
    expect(words.getAttribute('title')).toContain('spawn-storm, reason birth-rate');
  });
});
