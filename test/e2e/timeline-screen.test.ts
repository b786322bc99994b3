// The timeline screen at 420 × 700 and 1280 × 800 with a real `corral serve`, a fake agent whose tool
// call runs short-lived helpers (as pyenv's shims) before it leaks a sleep, and real Chromium: the
// short-lived lanes fold into one line, the story says what was and was not seen, and Stop is on the
// timeline screen itself. Screenshots go to test-artifacts/.
import { mkdirSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeAgent } from '../support/fake-agent';
import { groupMembers } from '../support/proc';
import { startServe } from '../support/serve-process';
import { waitFor } from '../support/wait-for';

const ARTIFACTS = 'test-artifacts';
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync'];
const POPOVER = { width: 420, height: 700 };
const WINDOW = { width: 1280, height: 800 };

let browser: Browser;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
});

afterAll(async () => {
  await browser?.close();
});

describe('the timeline screen', () => {
  it('folds short-lived processes, keeps the leak first, stops the group from the timeline; incidents as cards at 420', async () => {
    const serve = await startServe({ pollIntervalMs: 250, teardown: { graceMs: 1500 } });
    const agent = await FakeAgent.start({
      markers: { CLAUDECODE: '1', CLAUDE_CODE_SESSION_ID: 'sess-timeline-01', CLAUDE_PID: '$PID' },
    });
    const page = await browser.newPage({ viewport: WINDOW });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    try {
      await page.goto(serve.url);
      const call = await agent.toolCall(
        'for i in 1 2 3 4 5 6; do sleep 0.3; done; sleep 600 >/dev/null 2>&1 & sleep 0.5; echo done',
      );
      await call.closed();
      const row = page.locator(`tr[data-testid=group-row][data-group-id^="${call.pid}:"]`);
      await row.waitFor({ timeout: 20_000 });
      await row.getByRole('button', { name: `Show timeline of group ${call.pid}` }).click();
      const timeline = page.getByTestId('timeline');
      await timeline.waitFor();
      const folded = page.getByTestId('short-lived');
      await expect
        .poll(() => folded.textContent(), { timeout: 10_000 })
        .toMatch(/^[3-9] short-lived processes \(under 1 s each\): show$/);
      // The leak and its shell have lanes of their own; the short-lived sleeps are not among them.
      const shown = () =>
        timeline
          .locator('[data-testid=lane]')
          .evaluateAll((els) => els.map((e) => e.getAttribute('data-pid')));
      const sleeper = groupMembers(call.pid)[0]!.pid;
      expect(await shown()).toEqual([String(call.pid), String(sleeper)]);
      await folded.click();
      await expect.poll(async () => (await shown()).length).toBeGreaterThan(4);
      await folded.click();
      expect(await page.getByTestId('cpu-scale').textContent()).toMatch(
        /^CPU trace: a full-height lane is \d+% of one core$/,
      );
      // Every axis label lies inside the axis (read in one go: the axis is drawn again as time passes).
      const overflow = await page.getByTestId('time-axis').evaluate((axis) => {
        const a = axis.getBoundingClientRect();
        const labels = Array.from(axis.querySelectorAll('text')).map((t) => t.getBoundingClientRect());
        return {
          labels: labels.length,
          outside: labels.filter((b) => b.left < a.left - 0.5 || b.right > a.right + 0.5).length,
        };
      });
      expect(overflow.labels).toBeGreaterThan(0);
      expect(overflow.outside).toBe(0);
      await page.screenshot({ path: `${ARTIFACTS}/timeline-folded-1280.png` });

      await page.setViewportSize(POPOVER);
      await expect
        .poll(() => page.locator('.overview-page').getAttribute('data-layout'))
        .toBe('timeline-screen');
      const stop = page.getByTestId('timeline-stop');
      await stop.waitFor();
      const box = (await stop.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(POPOVER.width);
      await page.screenshot({ path: `${ARTIFACTS}/timeline-stop-420.png` });
      // Keep is beside Stop on the timeline screen: kept (said in the header), then let go.
      const actions = page.getByTestId('timeline-actions');
      await actions.getByRole('button', { name: `Keep group ${call.pid} running` }).click();
      await expect
        .poll(() => actions.getByTestId('kept-badge').textContent())
        .toMatch(/^kept, (?:8h00m|7h59m) left$/);
      const keptBox = (await actions.boundingBox())!;
      expect(keptBox.x + keptBox.width).toBeLessThanOrEqual(POPOVER.width);
      await page.screenshot({ path: `${ARTIFACTS}/timeline-kept-420.png` });
      await actions.getByRole('button', { name: `Stop keeping group ${call.pid}` }).click();
      await actions.getByRole('button', { name: `Keep group ${call.pid} running` }).waitFor();
      await stop.click();
      const dialog = page.getByTestId('stop-dialog');
      await expect
        .poll(() => dialog.locator('p').filter({ hasText: 'SIGTERM' }).textContent())
        .toBe('This process will get SIGTERM, then SIGKILL after 1.5 s if still running:');
      await dialog.getByRole('button', { name: 'Stop', exact: true }).click();
      await waitFor('the leak stopped', () => groupMembers(call.pid).length === 0, { timeoutMs: 15_000 });
      await expect
        .poll(() => page.getByTestId('stop-outcome').getAttribute('data-status'), { timeout: 10_000 })
        .toBe('done');
      await page.getByRole('button', { name: 'Close' }).click();
      await expect
        .poll(() => page.getByTestId('timeline-summary').textContent(), { timeout: 10_000 })
        .toMatch(/stopped by you, in Corral at .+: SIGTERM → -\d+ \(sent\)/);
      await page.screenshot({ path: `${ARTIFACTS}/timeline-stopped-420.png` });

      // Incidents at 420: one card per incident, nothing off screen sideways; the table at 1280.
      await page.getByRole('button', { name: 'Incidents' }).click();
      const card = page.locator('.incident-table tbody tr').first();
      await card.waitFor();
      await card.locator('td[data-label="End"]').waitFor();
      expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      for (const label of ['CPU', 'Duration', 'End']) {
        const cell = (await card.locator(`td[data-label="${label}"]`).boundingBox())!;
        expect(cell.x).toBeGreaterThanOrEqual(0);
        expect(cell.x + cell.width).toBeLessThanOrEqual(POPOVER.width);
      }
      const opened = (await card.locator('td[data-label="Opened"]').boundingBox())!;
      expect(opened.height).toBeLessThan(40);
      expect(await page.locator('.incident-table thead').isVisible()).toBe(false);
      await page.screenshot({ path: `${ARTIFACTS}/incidents-cards-420.png` });
      await page.setViewportSize(WINDOW);
      await expect.poll(() => page.locator('.incident-table thead').isVisible()).toBe(true);
      await page.screenshot({ path: `${ARTIFACTS}/incidents-table-1280.png` });

      // Settings: the policy mode is a control of its own width; the raw JSON waits behind "Advanced".
      for (const [name, size] of [
        ['1280', WINDOW],
        ['420', POPOVER],
      ] as const) {
        await page.setViewportSize(size);
        await page.getByRole('button', { name: 'Settings' }).click();
        const mode = page.locator('#policy-mode');
        await mode.waitFor();
        expect((await mode.boundingBox())!.width).toBeLessThan(400);
        expect(await page.locator('#agents-json').isVisible()).toBe(false);
        expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
        await page.screenshot({ path: `${ARTIFACTS}/settings-${name}.png`, fullPage: true });
      }
      await page.getByText('Advanced: extra agent signatures').click();
      expect(await page.locator('#agents-json').isVisible()).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
      await serve.stop();
    }
  });
});
