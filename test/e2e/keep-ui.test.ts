import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeAgent } from '../support/fake-agent';
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
  it('keeps a leftover: the row shows "kept, 8 h left" and Unkeep ends it', async () => {
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
    expect(await badge.textContent()).toBe('kept, 8 h left');
    expect(await row.getAttribute('data-kept')).toBe('true');
    // Its flags stay: kept is shown apart, not hidden.
    expect(await row.locator('[data-flag=orphan]').count()).toBe(1);
    expect(groupMembers(call.pid)).toHaveLength(1);

    await row.getByRole('button', { name: `Stop keeping group ${call.pid}` }).click();
    await badge.waitFor({ state: 'detached', timeout: 10_000 });
    expect(await row.getAttribute('data-kept')).toBeNull();
    await row.getByRole('button', { name: `Keep group ${call.pid} running` }).waitFor({ state: 'visible' });
    expect(errors).toEqual([]);
    await page.close();
  });
});
