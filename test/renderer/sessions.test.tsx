// The overview by agent → session: two sessions of one agent told apart, each leftover row naming its
// tool call, cwd and ports, search by port, and "Stop everything this session left".
import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../../renderer/src/App';
import type { StopSessionRequest, StopSessionResult } from '../../shared/contract';
import type { GroupView, SessionRef, TeardownResult } from '../../shared/model';
import { FakeCorralApi, deferred } from './support/fake-corral-api';
import { T0, makeGroup, makeProcess, makeSettings, makeSnapshot, makeTimeline } from './support/fixtures';
import { renderWithCorral } from './support/render-app';

const SHOP: SessionRef = {
  id: '3f0e5a52-7a53-4c55-9a51-2f1d8f6c0b11',
  source: 'env',
  project: '/home/me/shop',
  agentAlive: true,
};
const BLOG: SessionRef = {
  id: '9b1c7d00-1111-4c55-9a51-2f1d8f6c0b22',
  source: 'env',
  project: '/home/me/blog',
  agentAlive: false,
};
const CLAUDE = { name: 'claude-code', pid: null };

const devServer = makeGroup({
  pgid: 500,
  id: '500:501:5010',
  agent: CLAUDE,
  session: SHOP,
  flags: ['orphan'],
  leaderAlive: false,
  startedAt: T0 - 12 * 60_000,
  toolCall: {
    id: 'toolu_01',
    command: 'npm run dev',
    description: 'Start the dev server',
    startedAt: T0 - 12 * 60_000,
  },
  ports: [
    { protocol: 'tcp', address: '127.0.0.1', port: 3000 },
    { protocol: 'tcp6', address: '::1', port: 3000 },
  ],
  processes: [
    makeProcess({
      pid: 501,
      pgid: 500,
      command:
        "/bin/bash -c source /home/me/.claude/shell-snapshots/snapshot-bash-1.sh && eval 'npm run dev'",
      cwd: '/home/me/shop/web/app',
      flags: ['orphan'],
      startedAt: T0 - 12 * 60_000,
    }),
    makeProcess({
      pid: 502,
      pgid: 500,
      command: 'node vite.js',
      cwd: '/home/me/shop/web/app',
      ports: [{ protocol: 'tcp', address: '127.0.0.1', port: 3000 }],
      startedAt: T0 - 11 * 60_000,
    }),
  ],
});
const watcher = makeGroup({
  pgid: 600,
  id: '600:600:6000',
  agent: CLAUDE,
  session: SHOP,
  flags: ['orphan'],
  startedAt: T0 - 5 * 60_000,
  processes: [
    makeProcess({ pid: 600, pgid: 600, command: 'tsc --watch', cwd: '/home/me/shop', flags: ['orphan'] }),
  ],
});
const agentOwn = makeGroup({
  pgid: 700,
  id: '700:700:7000',
  agent: CLAUDE,
  session: SHOP,
  containsAgent: true,
  processes: [makeProcess({ pid: 700, pgid: 700, command: 'claude', role: 'agent' })],
});
const blogLeftover = makeGroup({
  pgid: 800,
  id: '800:800:8000',
  agent: CLAUDE,
  session: BLOG,
  flags: ['orphan'],
  processes: [
    makeProcess({ pid: 800, pgid: 800, command: 'python3 -m http.server 8000', cwd: '/tmp/elsewhere' }),
  ],
});
const noSession = makeGroup({
  pgid: 900,
  sid: 90,
  agent: CLAUDE,
  flags: ['orphan'],
  processes: [makeProcess({ pid: 900, pgid: 900, sid: 90, command: 'sleep 600', flags: ['orphan'] })],
});

const ALL = [devServer, watcher, agentOwn, blogLeftover, noSession];

function setup(groups: GroupView[] = ALL) {
  const stop = deferred<StopSessionResult>();
  const requests: StopSessionRequest[] = [];
  const api = new FakeCorralApi({
    'snapshot:get': () => makeSnapshot(1, groups),
    'timeline:get': ({ groupId }) => makeTimeline(groupId, []),
    'settings:get': () => makeSettings({ teardown: { graceMs: 2000 } }),
    'session:stop': (request) => {
      requests.push(request);
      return stop.promise;
    },
  });
  renderWithCorral(<App />, api);
  return { api, stop, requests };
}

const sessionRows = () => screen.queryAllByTestId('agent-session');
const rowIds = () => screen.queryAllByTestId('group-row').map((r) => r.getAttribute('data-group-id'));

function teardown(group: GroupView, overrides: Partial<TeardownResult> = {}): TeardownResult {
  return {
    groupId: group.id,
    pgid: group.pgid,
    mode: 'group',
    dryRun: false,
    refused: null,
    startedAt: T0,
    finishedAt: T0,
    signals: [],
    processes: group.processes.map((p) => ({
      pid: p.pid,
      startKey: p.startKey,
      command: p.command,
      outcome: 'exited-after-term',
      endedBy: 'SIGTERM',
    })),
    clean: true,
    ...overrides,
  };
}

describe('overview by agent and session', () => {
  it('says an agent is not known, rather than exited, when nothing tied the session to it', async () => {
    setup([{ ...blogLeftover, session: { ...BLOG, agentAlive: null } }]);
    fireEvent.click(await screen.findByRole('radio', { name: 'All agent groups' }));
    const state = within(sessionRows()[0]!).getByTestId('session-agent');
    expect(state.textContent).toBe('agent not known');
    expect(state.className).toBe('session-agent unknown');
  });

  it("shows what the agent's own session list says: the session's name and state, or that it ended", async () => {
    setup([
      {
        ...devServer,
        session: { ...SHOP, listed: 'running', name: 'Fix the shop', status: 'busy', state: 'working' },
      },
      { ...blogLeftover, session: { ...BLOG, listed: 'gone' } },
    ]);
    fireEvent.click(await screen.findByRole('radio', { name: 'All agent groups' }));
    const [shop, blog] = sessionRows();
    expect(within(shop!).getByTestId('session-listed').textContent).toBe('"Fix the shop" (busy, working)');
    expect(within(blog!).getByTestId('session-listed').textContent).toBe("ended (the agent's list)");
    expect(within(blog!).getByTestId('session-agent').textContent).toBe('agent exited');
  });

  it('puts each agent session under its agent with project, short id, agent state and age, then its groups', async () => {
    setup();
    fireEvent.click(await screen.findByRole('radio', { name: 'All agent groups' }));
    const agent = screen.getByTestId('agent');
    expect(agent.getAttribute('data-agent')).toBe('claude-code');
    const headings = sessionRows();
    expect(headings.map((h) => h.getAttribute('data-session-id'))).toEqual([SHOP.id, BLOG.id]);
    const shop = headings[0]!;
    expect(shop.textContent).toContain('shop');
    expect(shop.textContent).toContain('3f0e5a52');
    expect(shop.textContent).not.toContain(SHOP.id);
    expect(within(shop).getByTestId('session-agent').textContent).toBe('agent alive');
    // The session's first leftover (the dev server, 12 minutes before the snapshot), not the agent.
    expect(within(shop).getByTestId('session-age').textContent).toMatch(/^first leftover 12m0\ds ago$/);
    expect(within(headings[1]!).getByTestId('session-agent').textContent).toBe('agent exited');
    expect(headings[1]!.textContent).toContain('blog');

    // Each session's groups follow its heading, in triage order; the group with no session stays under
    // the agent in its Unix session, as before.
    const order = [...agent.querySelectorAll('tr')].map(
      (tr) =>
        tr.getAttribute('data-session-id') ?? tr.getAttribute('data-group-id') ?? tr.getAttribute('data-sid'),
    );
    expect(order.filter((x) => x !== null)).toEqual([
      SHOP.id,
      devServer.id,
      watcher.id,
      agentOwn.id,
      BLOG.id,
      blogLeftover.id,
      '90',
      noSession.id,
    ]);
  });

  it("shows a leftover's tool call (description and command, not the wrapper), its cwd in the project and ports", async () => {
    setup();
    const row = (await screen.findAllByTestId('group-row')).find((r) => r.dataset.groupId === devServer.id)!;
    expect(within(row).getByTestId('tool-description').textContent).toBe('Start the dev server');
    expect(row.querySelector('.command-text')!.textContent).toBe('npm run dev');
    expect(within(row).getByTestId('group-cwd').textContent).toBe('web/app');
    expect(within(row).getByTestId('group-cwd').getAttribute('title')).toBe('/home/me/shop/web/app');
    expect(within(row).getByTestId('group-ports').textContent).toBe(':3000');

    const atRoot = screen.getAllByTestId('group-row').find((r) => r.dataset.groupId === watcher.id)!;
    expect(within(atRoot).getByTestId('group-cwd').textContent).toBe('project root');
    expect(within(atRoot).queryByTestId('tool-description')).toBeNull();
    expect(within(atRoot).queryByTestId('group-ports')).toBeNull();
    const outside = screen.getAllByTestId('group-row').find((r) => r.dataset.groupId === blogLeftover.id)!;
    expect(within(outside).getByTestId('group-cwd').textContent).toBe('/tmp/elsewhere');
  });

  it('finds the group holding a port, written 3000 or :3000, and still searches commands', async () => {
    setup();
    await screen.findAllByTestId('group-row');
    const search = screen.getByRole('searchbox', { name: 'Search by command or port' });
    fireEvent.change(search, { target: { value: ':3000' } });
    expect(rowIds()).toEqual([devServer.id]);
    fireEvent.change(search, { target: { value: '3000' } });
    expect(rowIds()).toEqual([devServer.id]);
    // A number in a command line still matches as text.
    fireEvent.change(search, { target: { value: '8000' } });
    expect(rowIds()).toEqual([blogLeftover.id]);
    fireEvent.change(search, { target: { value: ':3001' } });
    expect(screen.getByTestId('no-groups').textContent).toMatch(/No group matches/);
    // The tool call's description is searchable too.
    fireEvent.change(search, { target: { value: 'dev server' } });
    expect(rowIds()).toEqual([devServer.id]);
  });

  it('stops everything a session left after listing every process of every group, and not the agent', async () => {
    const { stop, requests } = setup();
    fireEvent.click(await screen.findByRole('button', { name: 'Stop everything session 3f0e5a52 left…' }));
    const dialog = screen.getByRole('dialog', { name: 'Stop everything session 3f0e5a52 left' });
    expect(dialog.textContent).toContain("the agent's own group is left alone");
    expect(
      await within(dialog).findByText(/^These 3 processes will get SIGTERM, then SIGKILL after 2 s/),
    ).toBeTruthy();
    const lists = within(dialog).getAllByTestId('stop-targets');
    expect(lists.map((l) => l.getAttribute('aria-label'))).toEqual([
      'Group 500: npm run dev',
      'Group 600: tsc --watch',
    ]);
    expect(
      lists.flatMap((l) => [...l.querySelectorAll('li')].map((li) => li.getAttribute('data-pid'))),
    ).toEqual(['501', '502', '600']);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Stop' }));
    expect(requests).toEqual([{ sessionId: SHOP.id, groupIds: [devServer.id, watcher.id] }]);
    expect(screen.getAllByTestId('stop-outcome').map((o) => o.getAttribute('data-status'))).toEqual([
      'running',
      'running',
    ]);
    await act(async () =>
      stop.resolve({
        sessionId: SHOP.id,
        refused: null,
        skipped: [{ groupId: agentOwn.id, reason: "the agent's own group" }],
        outcomes: [
          { groupId: devServer.id, result: teardown(devServer), refused: null },
          { groupId: watcher.id, result: null, refused: 'group 600:600:6000 is already gone' },
        ],
      }),
    );
    const outcomes = screen.getAllByTestId('stop-outcome');
    expect(outcomes.map((o) => o.getAttribute('data-status'))).toEqual(['done', 'failed']);
    expect(within(outcomes[0]!).getByRole('status').textContent).toBe('Every targeted process is gone.');
    expect(within(outcomes[1]!).getByRole('alert').textContent).toBe(
      'Not stopped: group 600:600:6000 is already gone',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('offers no session stop when the session left nothing but the agent', async () => {
    setup([agentOwn]);
    fireEvent.click(await screen.findByRole('radio', { name: 'All agent groups' }));
    const heading = await screen.findByTestId('agent-session');
    expect(within(heading).queryByRole('button')).toBeNull();
    expect(within(heading).queryByTestId('session-age')).toBeNull();
  });
});
