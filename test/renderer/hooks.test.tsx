import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { HookOfferBanner } from '../../renderer/src/hooks/HookOfferBanner';
import { HooksSection } from '../../renderer/src/hooks/HooksSection';
import { createCorralStore } from '../../renderer/src/store/create-store';
import type {
  HookAgentStatus,
  HooksChangeView,
  HooksInstallRequest,
  HooksOverview,
} from '../../shared/hooks';
import type { HookEndpointView } from '../../shared/hook-endpoint';
import { FakeCorralApi } from './support/fake-corral-api';
import { renderWithCorral } from './support/render-app';

const CLAUDE_FILE = '/home/me/.claude/settings.json';
const DIFF = `@@ -1,3 +1,12 @@\n {\n   "model": "opus",\n+  "hooks": { "PostToolUse": [ … corral hook claude-code PostToolUse … ] }\n }`;

function agent(
  overrides: Partial<HookAgentStatus> & Pick<HookAgentStatus, 'agent' | 'label'>,
): HookAgentStatus {
  return {
    path: `/home/me/.${overrides.agent}/settings.json`,
    state: 'absent',
    events: {},
    seen: false,
    ...overrides,
  };
}

const INSTALLED_EVENTS = {
  PreToolUse: '/usr/local/bin/corral hook claude-code PreToolUse',
  PostToolUse: '/usr/local/bin/corral hook claude-code PostToolUse',
  SessionEnd: '/usr/local/bin/corral hook claude-code SessionEnd',
};

/** The buttons of the hooks' offers (not the hook service's own "Ask again"). */
function offeredButtons(): (string | null)[] {
  return screen
    .getAllByRole('button')
    .filter((b) => !b.closest('[data-testid=hook-service]'))
    .map((b) => b.textContent);
}

function setup(initial: HooksOverview) {
  let overview = initial;
  const installs: HooksInstallRequest[] = [];
  const api = new FakeCorralApi({
    'hooks:status': () => overview,
    'hooks:endpoint': (): HookEndpointView => ({
      state: 'answering',
      path: '/home/me/.local/share/corral/hooks/endpoint',
      port: 21000,
      asking: { client: ['Claude Code'], http: [] },
    }),
    'hooks:install': (request): HooksChangeView => {
      installs.push(request);
      if (request.dryRun)
        return { agent: request.agent, path: CLAUDE_FILE, changed: true, diff: DIFF, backup: null };
      overview = {
        ...overview,
        agents: overview.agents.map((a) =>
          a.agent === request.agent ? { ...a, state: 'installed', events: INSTALLED_EVENTS } : a,
        ),
      };
      return {
        agent: request.agent,
        path: CLAUDE_FILE,
        changed: true,
        diff: DIFF,
        backup: `${CLAUDE_FILE}.corral-backup-1700000000000`,
      };
    },
  });
  renderWithCorral(<HooksSection />, api);
  return { api, installs };
}

const overview = (): HooksOverview => ({
  command: '/usr/local/bin/corral',
  agents: [
    agent({ agent: 'claude-code', label: 'Claude Code', path: CLAUDE_FILE, seen: true }),
    agent({ agent: 'codex', label: 'Codex CLI', path: '/home/me/.codex/hooks.json' }),
    agent({
      agent: 'gemini-cli',
      label: 'Gemini CLI',
      path: '/home/me/.gemini/settings.json',
      state: 'invalid',
      error: '/home/me/.gemini/settings.json: not valid JSON (ValueExpected at offset 20)',
      seen: true,
    }),
    agent({
      agent: 'qwen-code',
      label: 'Qwen Code',
      state: 'installed',
      events: { SessionEnd: 'corral hook qwen-code SessionEnd' },
    }),
  ],
});

describe('agent hooks in settings', () => {
  it('shows which agents have Corral hooks and in which file', async () => {
    setup(overview());
    const list = await screen.findByRole('list', { name: 'Hook status' });
    expect(
      within(list)
        .getAllByTestId('hook-agent')
        .map((li) => [
          li.querySelector('.hook-head')!.textContent,
          li.querySelector('.hook-detail')!.textContent,
          li.querySelector('.hook-detail')!.getAttribute('title'),
        ]),
    ).toEqual([
      [
        'Claude Code not set up · seen running on this machine',
        CLAUDE_FILE,
        `no Corral hooks (${CLAUDE_FILE})`,
      ],
      [
        'Codex CLI not set up · not found on this machine',
        '/home/me/.codex/hooks.json',
        'no Corral hooks (/home/me/.codex/hooks.json)',
      ],
      [
        'Gemini CLI cannot read its settings · seen running on this machine',
        '/home/me/.gemini/settings.json: not valid JSON (ValueExpected at offset 20)',
        'cannot tell: /home/me/.gemini/settings.json: not valid JSON (ValueExpected at offset 20)',
      ],
      [
        'Qwen Code set up · not found on this machine',
        '/home/me/.qwen-code/settings.json',
        "Corral's hooks in /home/me/.qwen-code/settings.json (SessionEnd)",
      ],
    ]);
    // The same in a terminal, with the CLI as this machine runs it.
    expect(screen.getByTestId('hook-cli-command').textContent).toBe(
      '/usr/local/bin/corral hooks install --agent claude-code\n/usr/local/bin/corral hooks uninstall --agent claude-code',
    );
  });

  it('offers hooks only to seen agents lacking them, shows the diff first, and installs only on the click', async () => {
    const { installs } = setup(overview());
    const offer = await screen.findByRole('button', { name: 'Install hooks for Claude Code…' });
    // Not offered: an agent never seen (Codex), an unreadable file (Gemini), one already installed (Qwen).
    expect(offeredButtons()).toEqual(['Install hooks for Claude Code…']);
    await act(async () => fireEvent.click(offer));
    expect(installs).toEqual([{ agent: 'claude-code', dryRun: true }]);
    const preview = screen.getByRole('region', { name: 'Hook changes' });
    expect(within(preview).getByTestId('hook-diff').textContent).toBe(DIFF);
    expect(preview.textContent).toContain(`changes ${CLAUDE_FILE} (a backup is written beside it first)`);

    await act(async () => fireEvent.click(within(preview).getByRole('button', { name: 'Install' })));
    expect(installs).toEqual([
      { agent: 'claude-code', dryRun: true },
      { agent: 'claude-code', dryRun: false },
    ]);
    expect(screen.getByTestId('hook-installed').textContent).toBe(
      `Installed Claude Code's hooks in ${CLAUDE_FILE}; the previous file is kept as ${CLAUDE_FILE}.corral-backup-1700000000000.`,
    );
    await waitFor(() =>
      expect(screen.getAllByTestId('hook-agent')[0]!.querySelector('.hook-head')!.textContent).toBe(
        'Claude Code set up · seen running on this machine',
      ),
    );
    expect(screen.queryByRole('button', { name: /Install hooks for/ })).toBeNull();
  });

  it('Cancel leaves everything as it was', async () => {
    const { installs } = setup(overview());
    const offer = await screen.findByRole('button', { name: 'Install hooks for Claude Code…' });
    await act(async () => fireEvent.click(offer));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Cancel' })));
    expect(installs).toEqual([{ agent: 'claude-code', dryRun: true }]);
    expect(screen.queryByRole('region', { name: 'Hook changes' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Install hooks for Claude Code…' })).toBeTruthy();
  });

  it('without a corral command for the hooks, says why, offers no install, and looks again on request', async () => {
    const { api } = setup({
      ...overview(),
      command: null,
      cliCommand: null,
      commandProblem: 'the corral command was not found on PATH',
    });
    expect((await screen.findByTestId('hook-command-problem')).textContent).toBe(
      "Corral's hooks run the corral command, which this machine does not have on its PATH yet." +
        'Hooks cannot be installed from here: the corral command was not found on PATH.Look again',
    );
    expect(offeredButtons()).toEqual(['Look again']);
    // The user installs the CLI, then looks again: the offer appears.
    api.handle('hooks:status', () => overview());
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Look again' })));
    expect(offeredButtons()).toEqual(['Install hooks for Claude Code…']);
    expect(screen.queryByTestId('hook-command-problem')).toBeNull();
  });

  it("inside the desktop app, leads to the app's Install command-line tool…", async () => {
    const win = window as unknown as { corral?: unknown };
    win.corral = {};
    try {
      setup({ ...overview(), command: null, cliCommand: null, commandProblem: 'not on PATH' });
      expect((await screen.findByTestId('hook-command-problem')).textContent).toContain(
        "Install it from Corral's menu-bar menu (Install command-line tool…) or with npm install -g corral, then look again.",
      );
    } finally {
      delete win.corral;
    }
  });

  it('offers hooks to an agent installed here but not yet seen, and names the CLI by its full command', async () => {
    const base = overview();
    const { installs } = setup({
      ...base,
      command: "'/opt/node 24/bin/node' /srv/corral/out/main/corral-hook.js",
      cliCommand: "'/opt/node 24/bin/node' /srv/corral/out/main/corral.js",
      agents: base.agents.map((a) => (a.agent === 'codex' ? { ...a, installed: true } : a)),
    });
    const codex = await screen.findByRole('button', { name: 'Install hooks for Codex CLI…' });
    expect(screen.getAllByTestId('hook-agent')[1]!.querySelector('.hook-head')!.textContent).toBe(
      'Codex CLI not set up · installed on this machine',
    );
    expect(screen.getByTestId('hook-cli-command').textContent).toBe(
      "'/opt/node 24/bin/node' /srv/corral/out/main/corral.js hooks install --agent claude-code\n" +
        "'/opt/node 24/bin/node' /srv/corral/out/main/corral.js hooks uninstall --agent claude-code",
    );
    await act(async () => fireEvent.click(codex));
    expect(installs).toEqual([{ agent: 'codex', dryRun: true }]);
  });

  it('shows an install error and writes nothing more', async () => {
    const { api, installs } = setup(overview());
    api.handle('hooks:install', (request) => {
      installs.push(request);
      return {
        agent: request.agent,
        path: CLAUDE_FILE,
        changed: false,
        diff: '',
        backup: null,
        error: `${CLAUDE_FILE}: not valid JSON (CommaExpected at offset 30); left untouched`,
      };
    });
    const offer = await screen.findByRole('button', { name: 'Install hooks for Claude Code…' });
    await act(async () => fireEvent.click(offer));
    expect(screen.getByTestId('hook-error').textContent).toBe(
      `${CLAUDE_FILE}: not valid JSON (CommaExpected at offset 30); left untouched`,
    );
    expect(screen.queryByRole('region', { name: 'Hook changes' })).toBeNull();
    expect(installs).toEqual([{ agent: 'claude-code', dryRun: true }]);
  });
});

describe('the hook offer on the overview', () => {
  function renderBanner(initial: HooksOverview | Error) {
    localStorage.removeItem('corral.hookOfferDismissed');
    const api = new FakeCorralApi({
      'hooks:status': () => {
        if (initial instanceof Error) throw initial;
        return initial;
      },
    });
    const store = createCorralStore();
    renderWithCorral(<HookOfferBanner />, api, store);
    return { api, store };
  }

  it('names the seen agents without hooks and leads to Settings', async () => {
    const { store } = renderBanner(overview());
    const banner = await screen.findByTestId('hook-offer');
    // Claude Code only: Gemini's file is unreadable, Codex was never seen, Qwen has them.
    expect(banner.textContent).toContain("Claude Code ran here without Corral's hooks");
    await act(async () => fireEvent.click(within(banner).getByRole('button', { name: 'Set up hooks…' })));
    expect(store.getState().page).toBe('settings');
  });

  it('"Not now" hides it and is remembered', async () => {
    const { api } = renderBanner(overview());
    const banner = await screen.findByTestId('hook-offer');
    await act(async () => fireEvent.click(within(banner).getByRole('button', { name: 'Not now' })));
    expect(screen.queryByTestId('hook-offer')).toBeNull();
    expect(localStorage.getItem('corral.hookOfferDismissed')).toBe('1');
    cleanup();
    const again = new FakeCorralApi({ 'hooks:status': () => overview() });
    renderWithCorral(<HookOfferBanner />, again);
    await act(async () => undefined);
    expect(screen.queryByTestId('hook-offer')).toBeNull();
    expect(again.requests.map((r) => r.channel)).not.toContain('hooks:status');
    expect(api.requests.filter((r) => r.channel === 'hooks:status')).toHaveLength(1);
  });

  it('offers nothing without a corral command, or when the status cannot be read', async () => {
    renderBanner({ ...overview(), command: null });
    await act(async () => undefined);
    expect(screen.queryByTestId('hook-offer')).toBeNull();
    cleanup();
    const { api } = renderBanner(new Error('settings unreadable'));
    await waitFor(() => expect(api.requests.map((r) => r.channel)).toContain('hooks:status'));
    await act(async () => undefined);
    expect(screen.queryByTestId('hook-offer')).toBeNull();
  });
});
