import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../../renderer/src/App';
import { SettingsPage } from '../../renderer/src/settings/SettingsPage';
import { ruleFromGroup, wouldHaveStopped } from '../../renderer/src/policies/policy-journal';
import type { MonitorEvent, Settings } from '../../shared/model';
import { FakeCorralApi } from './support/fake-corral-api';
import { makeGroup, makeSettings, makeSnapshot, makeTimeline } from './support/fixtures';
import { renderWithCorral } from './support/render-app';

const rules: Settings['policies'] = [
  {
    name: 'stop-orphaned-loops',
    match: { flags: ['orphan', 'runaway'], agents: ['claude-code'] },
    action: 'stop',
  },
  { name: 'big-memory', match: { flags: ['memory-hog'] }, action: 'notify', enabled: false },
];

function matched(groupId: string, policy: string, action: 'stop' | 'notify', at = Date.now()): MonitorEvent {
  const pgid = Number(groupId.split(':')[0]);
  return {
    type: 'policy-matched',
    at,
    groupId,
    pid: pgid,
    pgid,
    detail: { policy, action, executed: false },
  };
}

function setup(current: Settings, stored: MonitorEvent[] = []) {
  const patches: Array<Partial<Settings>> = [];
  const api = new FakeCorralApi({
    'policies:journal': () => stored,
    'hooks:status': () => ({ agents: [], command: null, commandProblem: 'not in this test' }),
    'snapshot:get': () => makeSnapshot(1, []),
    'timeline:get': ({ groupId }) => makeTimeline(groupId, []),
    'settings:get': () => current,
    'settings:set': (patch) => {
      patches.push(patch);
      return { ok: true, settings: { ...current, ...patch } };
    },
  });
  return { api, patches };
}

describe('policy journal', () => {
  it('counts distinct groups a stop rule matched without stopping, since the given time', () => {
    const now = Date.now();
    const journal = [
      matched('10:10:1', 'stop-orphaned-loops', 'stop', now),
      matched('10:10:1', 'other-stop', 'stop', now),
      matched('11:11:1', 'stop-orphaned-loops', 'stop', now),
      matched('12:12:1', 'big-memory', 'notify', now),
      matched('13:13:1', 'stop-orphaned-loops', 'stop', now - 86_400_000 * 2),
    ];
    expect(wouldHaveStopped(journal, now - 86_400_000)).toBe(2);
  });

  it('prefills a rule from a flagged group: its agent and flags, as a notify rule with a fresh name', () => {
    const group = makeGroup({ pgid: 40, agent: { name: 'codex', pid: 7 }, flags: ['orphan', 'runaway'] });
    const rule = ruleFromGroup(group, [
      { name: 'codex-orphan-runaway', match: { agents: ['x'] }, action: 'stop' },
    ]);
    expect(rule).toEqual({
      name: 'codex-orphan-runaway-2',
      match: { agents: ['codex'], flags: ['orphan', 'runaway'] },
      action: 'notify',
    });
  });
});

describe('policies in settings', () => {
  it('lists the rules, says what observe mode would have stopped today, and shows the journal', async () => {
    const { api } = setup(makeSettings({ policyMode: 'observe', policies: rules }));
    renderWithCorral(<SettingsPage />, api);
    const list = await screen.findByRole('list', { name: 'Policy rules' });
    expect(
      within(list)
        .getAllByTestId('policy-rule')
        .map((li) => li.querySelector('label')!.textContent),
    ).toEqual([
      'stop-orphaned-loops — stop when claude-code; orphan + runaway',
      'big-memory — notify when memory hog',
    ]);
    expect((screen.getByRole('checkbox', { name: 'Enable big-memory' }) as HTMLInputElement).checked).toBe(
      false,
    );
    expect(screen.getByTestId('policy-summary').textContent).toBe('Would have stopped 0 groups today.');
    act(() => {
      api.push('event', matched('10:10:1', 'stop-orphaned-loops', 'stop'));
      api.push('event', matched('11:11:1', 'stop-orphaned-loops', 'stop'));
      api.push('event', matched('12:12:1', 'big-memory', 'notify'));
      api.push('event', { type: 'orphaned', at: Date.now(), groupId: '13:13:1', pid: 13, pgid: 13 });
    });
    await waitFor(() =>
      expect(screen.getByTestId('policy-summary').textContent).toBe('Would have stopped 2 groups today.'),
    );
    expect(screen.getAllByTestId('journal-entry')).toHaveLength(3);
    expect(screen.getAllByTestId('journal-entry')[0]!.textContent).toContain(
      'big-memory: would notify group 12',
    );
  });

  it('counts and lists the stored journal (since local midnight), merged with what is pushed after', async () => {
    const midnight = new Date();
    midnight.setHours(0, 0, 0, 0);
    const stored = [
      matched('20:20:1', 'stop-orphaned-loops', 'stop', midnight.getTime() + 1),
      matched('21:21:1', 'stop-orphaned-loops', 'stop', midnight.getTime() - 1),
    ];
    const { api } = setup(makeSettings({ policyMode: 'observe', policies: rules }), stored);
    renderWithCorral(<SettingsPage />, api);
    await waitFor(() =>
      expect(screen.getByTestId('policy-summary').textContent).toBe('Would have stopped 1 group today.'),
    );
    expect(api.requests.find((r) => r.channel === 'policies:journal')?.payload).toEqual({ limit: 500 });
    expect(screen.getAllByTestId('journal-entry')).toHaveLength(2);
    // The same match pushed again (the core records each once; a reconnect may repeat it) counts once.
    act(() => {
      api.push('event', stored[0]!);
      api.push('event', matched('22:22:1', 'stop-orphaned-loops', 'stop'));
    });
    await waitFor(() =>
      expect(screen.getByTestId('policy-summary').textContent).toBe('Would have stopped 2 groups today.'),
    );
    expect(screen.getAllByTestId('journal-entry')).toHaveLength(3);
  });

  it('says so when the stored journal cannot be read', async () => {
    const { api } = setup(makeSettings({ policies: rules }));
    api.handle('policies:journal', () => {
      throw new Error('the Corral worker has exited');
    });
    renderWithCorral(<SettingsPage />, api);
    const alert = await screen.findByTestId('policy-errors');
    expect(alert.textContent).toBe('The policy journal could not be read: the Corral worker has exited');
  });

  it('switches a rule on and the mode to enforce through settings:set', async () => {
    const { api, patches } = setup(makeSettings({ policies: rules }));
    renderWithCorral(<SettingsPage />, api);
    const toggle = await screen.findByRole('checkbox', { name: 'Enable big-memory' });
    await act(async () => fireEvent.click(toggle));
    expect(patches[0]).toEqual({ policies: [rules[0], { ...rules[1], enabled: true }] });
    await act(async () =>
      fireEvent.change(screen.getByRole('combobox', { name: /Mode/ }), { target: { value: 'enforce' } }),
    );
    expect(patches[1]).toEqual({ policyMode: 'enforce' });
    expect(screen.getByTestId('policy-summary').textContent).toBe('Stopped 0 groups today.');
  });

  it('"Make this a rule…" on a flagged group opens Settings with the rule prefilled, and adds it', async () => {
    const flagged = makeGroup({
      pgid: 50,
      agent: { name: 'claude-code', pid: 9 },
      flags: ['orphan', 'leaderless'],
    });
    const { api, patches } = setup(makeSettings({ policies: [] }));
    api.handle('snapshot:get', () => makeSnapshot(2, [flagged]));
    renderWithCorral(<App />, api);
    const row = await screen.findByTestId('group-row');
    fireEvent.click(within(row).getByRole('button', { name: 'Make this a rule…' }));
    // The editor opens on the prefilled rule: its agent and flags ticked, notify until the user says stop.
    const editor = await screen.findByTestId('rule-editor');
    expect((within(editor).getByLabelText('Name') as HTMLInputElement).value).toBe(
      'claude-code-orphan-leaderless',
    );
    expect((within(editor).getByRole('checkbox', { name: 'claude-code' }) as HTMLInputElement).checked).toBe(
      true,
    );
    expect((within(editor).getByRole('checkbox', { name: /^orphan/ }) as HTMLInputElement).checked).toBe(
      true,
    );
    expect((within(editor).getByRole('radio', { name: 'Notify me' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(within(editor).getByRole('radio', { name: /Stop the group/ }));
    await act(async () => fireEvent.click(within(editor).getByRole('button', { name: 'Add rule' })));
    expect(patches).toEqual([
      {
        policies: [
          {
            name: 'claude-code-orphan-leaderless',
            match: { agents: ['claude-code'], flags: ['orphan', 'leaderless'] },
            action: 'stop',
          },
        ],
      },
    ]);
    expect(screen.queryByTestId('rule-editor')).toBeNull();
  });
});
