// Settings at 420 × 700 and 1280 × 800 in real Chromium, served by a real `corral serve` on a
// machine (a temporary HOME) where Claude Code and Codex are installed and `corral` is not on PATH:
// a policy rule is written with the form (refused field by field in the core's words until it holds,
// then in the config file), the rules' JSON waits behind "Advanced", Claude Code's hooks are installed
// from the page, and the terminal command the page shows runs as shown. Screenshots go to test-artifacts/.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nativeHookClientPath } from '../../main/core/hooks-setup/native-hook-client';
import { installedClientCommand } from '../support/hook-client-run';
import { noHorizontalScroll, withinWidth } from '../support/page-fit';
import { startServe } from '../support/serve-process';

const ARTIFACTS = 'test-artifacts';
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync'];
const POPOVER = { width: 420, height: 700 };
const WINDOW = { width: 1280, height: 800 };
const RULE = {
  name: 'stop-orphaned-loops',
  match: { agents: ['claude-code'], flags: ['orphan', 'runaway'] },
  action: 'stop',
};

let browser: Browser;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
});

afterAll(async () => {
  await browser?.close();
});

describe('Settings in real Chromium', () => {
  it('writes a policy with the form, installs hooks from the page, and fits at 420 and 1280', async () => {
    const serve = await startServe({ pollIntervalMs: 500, policies: [RULE] });
    const configFile = join(serve.home, 'config.json');
    // Installed here: their own settings directories exist (what the page calls "installed").
    mkdirSync(join(serve.home, '.claude'));
    mkdirSync(join(serve.home, '.codex'));
    const page = await browser.newPage({ viewport: WINDOW });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    try {
      await page.goto(serve.url);
      await page.getByRole('button', { name: 'Settings' }).click();
      const rules = page.getByTestId('policy-rule');
      await rules.first().waitFor();
      expect(await rules.first().locator('label').textContent()).toBe(
        'stop-orphaned-loops — stop when claude-code; orphan + runaway',
      );

      for (const [name, size] of [
        ['1280', WINDOW],
        ['420', POPOVER],
      ] as const) {
        await page.setViewportSize(size);
        const mode = (await page.locator('#policy-mode').boundingBox())!;
        expect(mode.width).toBeLessThan(400);
        expect(await noHorizontalScroll(page)).toBe(true);
        expect(
          await withinWidth(page, '.settings-page fieldset, .rule-list li, .hook-list li', size.width),
        ).toBe(true);
        // The JSON is an advanced view, not the page.
        expect(await page.locator('#policies-json').isVisible()).toBe(false);
        await page.screenshot({ path: `${ARTIFACTS}/settings-policies-${name}.png` });
      }

      // A new rule, refused by the core's validator until it holds; nothing is written before.
      await page.setViewportSize(POPOVER);
      await page.getByRole('button', { name: 'Add a rule…' }).click();
      const editor = page.getByTestId('rule-editor');
      await editor.getByLabel('Name').fill('dev servers');
      await editor.getByRole('button', { name: 'Add rule' }).click();
      await expect
        .poll(() => editor.getByTestId('rule-errors').textContent())
        .toContain('match: needs at least one of agents, flags or sessionEnded');
      await editor.getByRole('checkbox', { name: /^orphan\b/ }).check();
      await editor.getByLabel('Listens on port').fill('3000, http');
      await editor.getByLabel(/Command matches/).fill('(vite)\\1');
      await editor.getByRole('button', { name: 'Add rule' }).click();
      expect(await page.getByTestId('rule-ports-error').textContent()).toBe(
        'expected a non-empty list of port numbers (1..65535)',
      );
      expect(await page.getByTestId('rule-commandPatterns-error').textContent()).toContain(
        'RE2 cannot run it',
      );
      expect(await noHorizontalScroll(page)).toBe(true);
      await editor.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${ARTIFACTS}/settings-rule-errors-420.png` });
      expect(JSON.parse(readFileSync(configFile, 'utf8')).policies).toEqual([RULE]);

      await editor.getByLabel('Listens on port').fill('3000 5173');
      await editor.getByLabel(/Command matches/).fill('vite');
      await editor.getByLabel('Older than (s)').fill('3600');
      await editor.getByRole('button', { name: 'Add rule' }).click();
      await expect.poll(() => rules.count()).toBe(2);
      const written = {
        name: 'dev servers',
        match: { flags: ['orphan'], commandPatterns: ['vite'], ports: [3000, 5173], minAgeSeconds: 3600 },
        action: 'notify',
      };
      expect(JSON.parse(readFileSync(configFile, 'utf8')).policies).toEqual([RULE, written]);
      await page.getByText('Advanced: rules as JSON').click();
      expect(JSON.parse(await page.locator('#policies-json').inputValue())).toEqual([RULE, written]);
      await page.getByText('Advanced: rules as JSON').click();

      // Hooks: Claude Code and Codex are installed here and have none; Install for Claude Code.
      await page.setViewportSize(WINDOW);
      const claude = page.locator('[data-testid=hook-agent]', { hasText: 'Claude Code' });
      await expect
        .poll(() => claude.locator('.hook-head').textContent())
        .toMatch(/^Claude Code not set up · (seen running|installed) on this machine$/);
      const cliLines = (await page.getByTestId('hook-cli-command').textContent())!.split('\n');
      // corral is not on PATH: the command names this machine's Node and the CLI's script.
      expect(cliLines[0]).toBe(
        `${process.execPath} ${join(process.cwd(), 'out', 'main', 'corral.js')} hooks install --agent claude-code`,
      );
      // The commands wrap within their box at both sizes: nothing to scroll sideways, nothing cut.
      for (const [name, size] of [
        ['420', POPOVER],
        ['1280', WINDOW],
      ] as const) {
        await page.setViewportSize(size);
        expect(await noHorizontalScroll(page), name).toBe(true);
        expect(await withinWidth(page, 'fieldset.hooks pre, .hook-list li', size.width), name).toBe(true);
        const boxes = await page
          .locator('fieldset.hooks pre, .hook-list li')
          .evaluateAll((els) => els.map((e) => [e.scrollWidth, e.clientWidth, e.textContent] as const));
        for (const [scroll, client, text] of boxes)
          expect(scroll, `${name}: ${text}`).toBeLessThanOrEqual(client);
        await page.locator('fieldset.hooks').screenshot({ path: `${ARTIFACTS}/settings-hooks-${name}.png` });
      }
      await claude.getByRole('button', { name: 'Install hooks for Claude Code…' }).click();
      const preview = page.getByRole('region', { name: 'Hook changes' });
      await expect.poll(() => preview.getByTestId('hook-diff').textContent()).toContain('hook claude-code');
      await preview.getByRole('button', { name: 'Install', exact: true }).click();
      await expect.poll(() => claude.locator('.hook-head').textContent()).toMatch(/^Claude Code set up · /);
      const claudeSettings = readFileSync(join(serve.home, '.claude', 'settings.json'), 'utf8');
      // The hook runs the client, which asks a running Corral and otherwise falls back to this CLI's own
      // hook entry by absolute paths: it works without corral on PATH.
      const data = join(serve.home, 'data');
      expect(claudeSettings).toContain(`"${installedClientCommand(data)} hook claude-code PostToolUse"`);
      // Both clients hold the fallback (the perl client as text; the C client was built from this source).
      const fallback = `exec ${process.execPath} ${join(process.cwd(), 'out', 'main', 'corral-hook.js')} hook "$1" "$2"`;
      expect(readFileSync(join(data, 'hooks', 'corral-hook'), 'utf8')).toContain(fallback);
      if (existsSync(nativeHookClientPath(data))) {
        expect(readFileSync(nativeHookClientPath(data)).includes(fallback)).toBe(true);
      }

      // The command shown for the next agent (Codex) runs as shown, in a shell, on this machine.
      const next = (await page.getByTestId('hook-cli-command').textContent())!.split('\n')[0]!;
      expect(next).toMatch(/ hooks install --agent codex$/);
      const ran = spawnSync('sh', ['-c', next], {
        encoding: 'utf8',
        env: {
          PATH: '/usr/bin:/bin',
          HOME: serve.home,
          CORRAL_CONFIG: configFile,
          CORRAL_DATA_DIR: join(serve.home, 'data'),
        },
        timeout: 30_000,
      });
      expect(ran.status, ran.stderr).toBe(0);
      expect(existsSync(join(serve.home, '.codex', 'hooks.json'))).toBe(true);
      await page.reload();
      await page.getByRole('button', { name: 'Settings' }).click();
      const codex = page.locator('[data-testid=hook-agent]', { hasText: 'Codex' });
      await expect.poll(() => codex.locator('.hook-head').textContent()).toMatch(/^Codex CLI set up · /);

      for (const [name, size] of [
        ['1280', WINDOW],
        ['420', POPOVER],
      ] as const) {
        await page.setViewportSize(size);
        expect(await noHorizontalScroll(page)).toBe(true);
        await page.locator('fieldset.hooks').scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${ARTIFACTS}/settings-hooks-done-${name}.png` });
      }
      expect(errors).toEqual([]);
    } finally {
      await page.close();
      await serve.stop();
    }
  });
});
