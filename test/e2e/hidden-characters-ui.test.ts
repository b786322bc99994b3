import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeAgent } from '../support/fake-agent';
import { groupMembers, readProcStat } from '../support/proc';
import { startServe } from '../support/serve-process';
import { waitFor } from '../support/wait-for';

// A leftover whose command line holds a right-to-left override and zero-width characters: the page
// shows them as visible escapes (shared/words/visible-text.ts, as the CLI prints them), never raw, so the
// text cannot read reversed or hide anything.

const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync'];
const HIDDEN = /[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/;

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
});
afterAll(async () => {
  await browser?.close();
});

describe('commands with bidi controls and zero-width characters in real Chromium', () => {
  it('shows them as visible escapes in the row, its tooltip, the timeline and the stop dialog', async () => {
    const serve = await startServe({ pollIntervalMs: 250 });
    const agent = await FakeAgent.start();
    // $0 of a shell kept alive by its trailing `:` reads "invoice" RLO "fdp.exe" ZWSP: shown raw, "exe.pdf".
    const call = await agent.toolCall("sh -c 'sleep 600; :' 'invoice\u202efdp.exe\u200b' & echo done");
    await call.exited();
    await waitFor('wrapper gone', () => readProcStat(call.pid) === null);
    await waitFor('the leftover shell and its sleep', () => groupMembers(call.pid).length === 2);
    const shown = String.raw`invoice\u202efdp.exe\u200b`;

    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(serve.url);
    const row = page.locator(`tr[data-testid=group-row][data-group-id^="${call.pid}:"]`);
    await row.waitFor({ state: 'visible', timeout: 15_000 });

    const text = await row.locator('.command-text').innerText();
    expect(text).toContain(shown);
    expect(text).not.toMatch(HIDDEN);
    const title = (await row.locator('td.command').getAttribute('title')) ?? '';
    expect(title).toContain(shown);
    expect(title).not.toMatch(HIDDEN);

    await row.getByRole('button', { name: `Show timeline of group ${call.pid}` }).click();
    const lanes = page.locator('[data-testid=timeline] [data-testid=lane] .lane-command');
    await expect
      .poll(() => lanes.allInnerTexts(), { timeout: 10_000 })
      .toContain(`sh -c sleep 600; : ${shown}`);
    for (const lane of await lanes.allInnerTexts()) expect(lane).not.toMatch(HIDDEN);

    await row.getByRole('button', { name: `Stop group ${call.pid}…` }).click();
    const targets = page.locator('[data-testid=stop-dialog] [data-testid=stop-targets] code');
    await expect
      .poll(() => targets.allInnerTexts(), { timeout: 10_000 })
      .toContain(`sh -c sleep 600; : ${shown}`);
    for (const target of await targets.allInnerTexts()) expect(target).not.toMatch(HIDDEN);

    // Nothing anywhere on the page is a raw bidi control or zero-width character.
    expect(await page.locator('body').innerText()).not.toMatch(HIDDEN);
    expect(errors).toEqual([]);
    expect(await serve.stop()).toBe(0);
  });
});
