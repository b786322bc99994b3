import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../../renderer/src/App';
import type { StopGroupRequest } from '../../shared/contract';
import type { TeardownResult } from '../../shared/model';
import { FakeCorralApi, deferred } from './support/fake-corral-api';
import { T0, makeGroup, makeProcess, makeSettings, makeSnapshot, makeTimeline } from './support/fixtures';

const settings = makeSettings();
import { renderWithCorral } from './support/render-app';

const toolCall = makeGroup({
  pgid: 700,
  id: '700:700:1',
  flags: ['orphan', 'leaderless'],
  leaderAlive: false,
  processes: [
    makeProcess({ pid: 701, pgid: 700, command: 'sleep 600', flags: ['orphan'] }),
    makeProcess({ pid: 702, pgid: 700, command: 'yes', flags: ['orphan', 'runaway'] }),
    makeProcess({ pid: 703, pgid: 700, command: 'tail -f log', uid: 0 }),
  ],
});
const agentGroup = makeGroup({
  pgid: 800,
  id: '800:800:1',
  agent: { name: 'codex', pid: 800 },
  containsAgent: true,
  flags: ['orphan'],
  processes: [
    makeProcess({ pid: 800, pgid: 800, command: 'codex app-server' }),
    makeProcess({ pid: 801, pgid: 800, command: 'node mcp-server.js', flags: ['orphan'] }),
  ],
});

function result(overrides: Partial<TeardownResult>): TeardownResult {
  return {
    groupId: toolCall.id,
    pgid: 700,
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

function setup() {
  const stop = deferred<TeardownResult>();
  const requests: StopGroupRequest[] = [];
  const api = new FakeCorralApi({
    'snapshot:get': () => makeSnapshot(1, [toolCall, agentGroup]),
    'timeline:get': ({ groupId }) => makeTimeline(groupId, []),
    'settings:get': () => ({ ...settings, teardown: { graceMs: 3000 } }),
    'group:stop': (request) => {
      requests.push(request);
      return stop.promise;
    },
  });
  renderWithCorral(<App />, api);
  return { api, stop, requests };
}

async function openStopDialog(groupId: string) {
  const row = (await screen.findAllByTestId('group-row')).find(
    (r) => r.getAttribute('data-group-id') === groupId,
  )!;
  fireEvent.click(within(row).getByRole('button', { name: /^Stop (group \d+|\d+ orphans? of group \d+)…$/ }));
  return screen.getByRole('dialog');
}

function outcomes() {
  return Object.fromEntries(
    within(screen.getByTestId('outcomes'))
      .getAllByRole('listitem')
      .map((li) => [li.getAttribute('data-pid'), li.getAttribute('data-outcome')]),
  );
}

describe('stop group dialog', () => {
  it('lists every process, then shows live progress and the final outcome per process', async () => {
    const { api, stop, requests } = setup();
    const dialog = await openStopDialog(toolCall.id);
    expect(within(dialog).getByRole('heading').textContent).toBe('Stop group 700');
    expect(within(dialog).getByRole('radio', { name: 'Whole group' })).toHaveProperty('checked', true);
    const targets = within(dialog).getByRole('list', { name: 'Processes to signal' });
    expect(
      within(targets)
        .getAllByRole('listitem')
        .map((li) => li.getAttribute('data-pid')),
    ).toEqual(['701', '702', '703']);
    expect(
      await within(dialog).findByText(
        'These 3 processes will get SIGTERM, then SIGKILL after 3 s if still running:',
      ),
    ).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Stop' }));
    expect(requests).toEqual([{ groupId: toolCall.id, orphansOnly: false, withEscaped: false }]);
    expect(screen.getByTestId('stop-outcome').getAttribute('data-status')).toBe('running');
    expect(outcomes()).toEqual({ 701: 'pending', 702: 'pending', 703: 'pending' });

    const term = { signal: 'SIGTERM' as const, target: '-700', at: T0, result: 'sent' as const };
    act(() =>
      api.push(
        'teardown:progress',
        result({
          signals: [term],
          processes: [
            { pid: 701, startKey: 1, command: 'sleep 600', outcome: 'exited-after-term', goneAfterMs: 12 },
          ],
        }),
      ),
    );
    expect(outcomes()).toEqual({ 701: 'exited-after-term', 702: 'pending', 703: 'pending' });
    expect(screen.getByText('SIGTERM sent, waiting', { selector: '[data-pid="702"] *' })).toBeTruthy();

    // Progress for another group is not this dialog's business.
    act(() => api.push('teardown:progress', result({ groupId: agentGroup.id, processes: [] })));
    expect(outcomes()[701]).toBe('exited-after-term');

    await act(async () =>
      stop.resolve(
        result({
          signals: [term, { signal: 'SIGKILL', target: '-700', at: T0 + 3000, result: 'sent' }],
          processes: [
            { pid: 701, startKey: 1, command: 'sleep 600', outcome: 'exited-after-term', goneAfterMs: 12 },
            {
              pid: 702,
              startKey: 1,
              command: 'yes',
              outcome: 'killed',
              endedBy: 'SIGKILL',
              goneAfterMs: 3004,
            },
            {
              pid: 703,
              startKey: 1,
              command: 'tail -f log',
              outcome: 'not-permitted',
              owner: { uid: 0, user: 'root' },
              reason: 'EPERM',
            },
          ],
        }),
      ),
    );
    expect(screen.getByTestId('stop-outcome').getAttribute('data-status')).toBe('done');
    expect(outcomes()).toEqual({ 701: 'exited-after-term', 702: 'killed', 703: 'not-permitted' });
    const refused = within(screen.getByTestId('outcomes')).getByText(/refused/);
    expect(refused.textContent).toBe('refused: not permitted (owned by root 0): EPERM');
    expect(screen.getByRole('status').textContent).toBe('Some processes are still alive.');
    expect(screen.getByText('Signals sent (2)')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('offers only "Orphans only" for a group holding the agent and lists just its orphans', async () => {
    const { requests, stop } = setup();
    fireEvent.click(await screen.findByRole('radio', { name: 'All agent groups' }));
    const dialog = await openStopDialog(agentGroup.id);
    expect(
      within(dialog)
        .getAllByRole('radio')
        .map((r) => r.parentElement?.textContent),
    ).toEqual(['Orphans only']);
    const targets = within(dialog).getByRole('list', { name: 'Processes to signal' });
    expect(
      within(targets)
        .getAllByRole('listitem')
        .map((li) => li.getAttribute('data-pid')),
    ).toEqual(['801']);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Stop' }));
    expect(requests).toEqual([{ groupId: agentGroup.id, orphansOnly: true, withEscaped: false }]);
    await act(async () =>
      stop.resolve(
        result({
          groupId: agentGroup.id,
          mode: 'orphans-only',
          clean: true,
          processes: [{ pid: 801, startKey: 1, command: 'node mcp-server.js', outcome: 'exited-after-term' }],
        }),
      ),
    );
    expect(screen.getByRole('status').textContent).toBe('Every targeted process is gone.');
  });

  it('narrows the list when switching a plain group to orphans only, and cancels without a request', async () => {
    const { requests } = setup();
    const dialog = await openStopDialog(toolCall.id);
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Orphans only' }));
    expect(
      within(dialog)
        .getAllByRole('listitem')
        .map((li) => li.getAttribute('data-pid')),
    ).toEqual(['701', '702']);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(requests).toEqual([]);
  });

  it('shows why Corral refused, and a failed request', async () => {
    const { stop } = setup();
    await openStopDialog(toolCall.id);
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    await act(async () => stop.resolve(result({ refused: 'group holds the agent: use orphans only' })));
    expect(screen.getByTestId('stop-refused').textContent).toBe(
      'Refused: group holds the agent: use orphans only',
    );
  });

  it('reports a request that fails', async () => {
    const { stop } = setup();
    await openStopDialog(toolCall.id);
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    await act(async () => stop.reject(new Error('connection to corral closed')));
    expect(screen.getByTestId('stop-outcome').getAttribute('data-status')).toBe('failed');
    expect(screen.getByRole('alert').textContent).toBe('connection to corral closed');
  });

  it('offers the processes that left the group by setsid, and asks for them only when ticked', async () => {
    const escaped = makeGroup({
      pgid: 900,
      id: '900:900:1',
      agent: { name: 'claude-code', pid: 1 },
      processes: [
        makeProcess({
          pid: 900,
          pgid: 900,
          command: 'bash -c sleep 600',
          flags: ['escaped'],
          originGroup: { pgid: 700, sid: 700 },
        }),
      ],
    });
    const requests: StopGroupRequest[] = [];
    const stop = deferred<TeardownResult>();
    const api = new FakeCorralApi({
      'snapshot:get': () => makeSnapshot(1, [toolCall, escaped]),
      'timeline:get': ({ groupId }) => makeTimeline(groupId, []),
      'group:stop': (request) => {
        requests.push(request);
        return stop.promise;
      },
    });
    renderWithCorral(<App />, api);
    const dialog = await openStopDialog(toolCall.id);
    const pids = () =>
      within(within(dialog).getByRole('list', { name: 'Processes to signal' }))
        .getAllByRole('listitem')
        .map((li) => li.getAttribute('data-pid'));
    expect(pids()).toEqual(['701', '702', '703']);
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /1 process that left this group/ }));
    expect(pids()).toEqual(['701', '702', '703', '900']);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Stop' }));
    expect(requests).toEqual([{ groupId: toolCall.id, orphansOnly: false, withEscaped: true }]);
  });

  it('stops every orphan of an agent through one confirmation that lists them all', async () => {
    const { stop, requests } = setup();
    fireEvent.click(screen.getByRole('radio', { name: 'All agent groups' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Stop all 1 orphan of codex…' }));
    const dialog = screen.getByRole('dialog', { name: 'Stop all orphans of codex' });
    expect(within(dialog).getByText(/^This process will get SIGTERM/)).toBeTruthy();
    expect(
      within(dialog)
        .getAllByRole('listitem')
        .map((li) => li.getAttribute('data-pid')),
    ).toEqual(['801']);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Stop' }));
    expect(requests).toEqual([{ groupId: agentGroup.id, orphansOnly: true }]);
    await act(async () =>
      stop.resolve(result({ groupId: agentGroup.id, mode: 'orphans-only', clean: true })),
    );
    expect(screen.getByRole('status').textContent).toBe('Every targeted process is gone.');
  });
});
