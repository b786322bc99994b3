import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { FLAG_TABLE } from '../../shared/flags';
import { FakeAgent } from '../support/fake-agent';
import { runCli } from '../support/run-cli';
import { groupMembers, readProcStat } from '../support/proc';
import { startServe, type ServeProcess } from '../support/serve-process';
import { waitFor } from '../support/wait-for';

const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync'];

let browser: Browser;
let serve: ServeProcess | null = null;

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
});

afterAll(async () => {
  await serve?.stop();
  await browser?.close();
});

describe('"Keep running" in real Chromium, served by corral serve', () => {
  it('keeps a leftover: the row shows "kept, 7h59m left" and Unkeep ends it', async () => {
    serve = await startServe({ pollIntervalMs: 250 });
    const agent = await FakeAgent.start();
    const call = await agent.toolCall('sleep 600 & echo done');
    await call.exited();
    await waitFor('wrapper gone', () => readProcStat(call.pid) === null);

    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(serve.url);
    const row = page.locator(`tr[data-testid=group-row][data-group-id^="${call.pid}:"]`);
    await row.waitFor({ state: 'visible', timeout: 15_000 });
    await expect
      .poll(
        () => row.locator('[data-flag]').evaluateAll((els) => els.map((e) => e.getAttribute('data-flag'))),
        {
          timeout: 10_000,
        },
      )
      .toContain('orphan');
    expect(await row.getAttribute('data-kept')).toBeNull();

    await row.getByRole('button', { name: `Keep group ${call.pid} running` }).click();
    const badge = row.locator('[data-testid=kept-badge]');
    await badge.waitFor({ state: 'visible', timeout: 10_000 });
    expect(await badge.textContent()).toMatch(/^kept, (?:8h00m|7h59m) left$/);
    expect(await row.getAttribute('data-kept')).toBe('true');
    // Its flags stay: kept is shown apart, not hidden.
    expect(await row.locator('[data-flag=orphan]').count()).toBe(1);
    expect(groupMembers(call.pid)).toHaveLength(1);

    // One vocabulary (issue 47): the badge and `corral ps` say the one table's word for the flag.
    expect(await row.locator('[data-flag=orphan]').textContent()).toBe(FLAG_TABLE.orphan.word);
    const ps = await runCli(['ps'], {
      env: { CORRAL_DATA_DIR: join(serve.home, 'data'), CORRAL_CONFIG: '/nonexistent', COLUMNS: '300' },
    });
    const psLine = ps.stdout.split('\n').find((l) => l.includes(`${call.pid}:`));
    expect(psLine, ps.stdout).toMatch(new RegExp(`\\b${FLAG_TABLE.orphan.word}\\b`));

    // Stopping a kept group: the dialog says it is kept, and names no Unix session as "session".
    await row.getByRole('button', { name: `Stop group ${call.pid}…` }).click();
    const dialog = page.locator('[data-testid=stop-dialog]');
    await dialog.waitFor({ state: 'visible', timeout: 10_000 });
    expect(await dialog.locator('[data-testid=stop-kept]').textContent()).toMatch(
      /You kept this group running \(kept, (?:8h00m|7h59m) left\)/,
    );
    expect(await dialog.locator('.dialog-command').textContent()).not.toMatch(/session/);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached', timeout: 10_000 });

    await row.getByRole('button', { name: `Stop keeping group ${call.pid}` }).click();
    await badge.waitFor({ state: 'detached', timeout: 10_000 });
    expect(await row.getAttribute('data-kept')).toBeNull();
    await row.getByRole('button', { name: `Keep group ${call.pid} running` }).waitFor({ state: 'visible' });
    expect(errors).toEqual([]);
    await page.close();
  });
});
