// The Incidents page in real Chromium against a real `corral serve` whose data directory holds 1,000
// incidents written by the real store: each filter (agent, session, project, each flag, since, until)
// answers what the incidents say, pages join up, a time it cannot read is said so, and the table fits
// at 1280 × 800 and 420 × 700 with Peak memory and End in view and commands not cut short.
// Screenshots go to test-artifacts/ (and docs/incidents.png with CORRAL_README_SCREENSHOTS=1).
import { mkdirSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncidentFilter } from '../../shared/contract';
import { INCIDENT_FLAGS } from '../../shared/incident-filter';
import type { Incident } from '../../shared/model';
import { PAGE_SIZE } from '../../renderer/src/incidents/page-size';
import { expectedIds, NEEDLE_PROJECT, NEEDLE_SESSION, writeHistory } from '../support/history-fixture';
import { noHorizontalScroll, withinWidth } from '../support/page-fit';
import { startServe, type ServeProcess } from '../support/serve-process';

const ARTIFACTS = 'test-artifacts';
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync'];
const POPOVER = { width: 420, height: 700 };
const WINDOW = { width: 1280, height: 800 };

let browser: Browser;
let incidents: Incident[];
const written = Date.now();

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
});

afterAll(async () => {
  await browser?.close();
});

/** A serve of its own for each test (the groups a test started are stopped after it). */
async function openIncidents(size: { width: number; height: number }): Promise<Page> {
  const serve: ServeProcess = await startServe(
    { pollIntervalMs: 500 },
    { prepare: (_home, dataDir) => (incidents = writeHistory(dataDir, written)) },
  );
  const page = await browser.newPage({ viewport: size });
  await page.goto(serve.url);
  await page.getByRole('button', { name: 'Incidents' }).click();
  await page.getByRole('table', { name: 'Incident history' }).waitFor();
  return page;
}

const shownIds = (page: Page): Promise<string[]> =>
  page
    .locator('tr[data-incident-id]')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-incident-id')!));

/** Waits until the table shows `ids` (the page asks the server anew for each filter and page). */
async function expectShown(page: Page, ids: string[]): Promise<void> {
  await expect.poll(() => shownIds(page), { timeout: 10_000 }).toEqual(ids);
}

async function filterBy(
  page: Page,
  fields: Partial<Record<'Agent' | 'Session' | 'Project' | 'Since' | 'Until', string>>,
) {
  const form = page.getByRole('form', { name: 'Filter incidents' });
  await form.getByRole('button', { name: 'Clear' }).click();
  for (const [label, value] of Object.entries(fields))
    await form.getByLabel(label, { exact: true }).fill(value);
  await form.getByRole('button', { name: 'Filter' }).click();
}

const at = (msAgo: number) => new Date(written - msAgo).toISOString();

describe('the Incidents page over 1,000 incidents', () => {
  it('filters by agent, session, project and time, as corral history does', async () => {
    const page = await openIncidents(WINDOW);
    try {
      // Unfiltered, the first page: the session's four incidents are far older.
      await expectShown(page, expectedIds(incidents, {}).slice(0, PAGE_SIZE));
      const cases: [Parameters<typeof filterBy>[1], IncidentFilter][] = [
        [{ Session: NEEDLE_SESSION }, { sessionId: NEEDLE_SESSION }],
        [{ Session: 'needle-s' }, { sessionId: 'needle-s' }],
        [{ Agent: 'gemini' }, { agent: 'gemini' }],
        [{ Project: NEEDLE_PROJECT }, { project: NEEDLE_PROJECT }],
        [
          { Project: '/work/project-1', Agent: 'codex' },
          { project: '/work/project-1', agent: 'codex' },
        ],
        [{ Since: at(3_600_000) }, { sinceMs: written - 3_600_000 }],
        [
          { Since: at(9_500_000), Until: at(9_000_000) },
          { sinceMs: written - 9_500_000, untilMs: written - 9_000_000 },
        ],
      ];
      for (const [fields, filter] of cases) {
        const expected = expectedIds(incidents, filter);
        expect(expected.length).toBeGreaterThan(0);
        await filterBy(page, fields);
        await expectShown(page, expected.slice(0, PAGE_SIZE));
      }
      await expectShown(
        page,
        expectedIds(incidents, { sinceMs: written - 9_500_000, untilMs: written - 9_000_000 }),
      );

      await filterBy(page, { Since: 'yesterday' });
      await expect
        .poll(() => page.getByRole('alert').textContent())
        .toContain('Since: 30m, 2h, 7d ago, or a date');
      await filterBy(page, { Agent: 'nobody' });
      await page.getByText('No incidents match.').waitFor();
    } finally {
      await page.close();
    }
  });

  it('filters by each flag, and pages through what matches', async () => {
    const page = await openIncidents(POPOVER);
    try {
      const form = page.getByRole('form', { name: 'Filter incidents' });
      for (const flag of INCIDENT_FLAGS) {
        const expected = expectedIds(incidents, { flag });
        expect(expected.length).toBeGreaterThan(PAGE_SIZE);
        await form.getByLabel('Flag').selectOption(flag);
        await expectShown(page, expected.slice(0, PAGE_SIZE));
        for (const id of await shownIds(page))
          expect(await page.locator(`tr[data-incident-id="${id}"] .badge-${flag}`).count()).toBe(1);
        await page.getByRole('button', { name: 'Older' }).click();
        await expectShown(page, expected.slice(PAGE_SIZE, 2 * PAGE_SIZE));
        expect(await page.getByTestId('incident-range').textContent()).toBe(
          `${PAGE_SIZE + 1}–${Math.min(expected.length, 2 * PAGE_SIZE)}`,
        );
        await page.getByRole('button', { name: 'Newer' }).click();
        await expectShown(page, expected.slice(0, PAGE_SIZE));
      }
    } finally {
      await page.close();
    }
  });

  it('fits at 1280 and 420 px: no sideways scroll, Peak memory and End in view, commands readable', async () => {
    const page = await openIncidents(WINDOW);
    try {
      // The README's picture (with CORRAL_README_SCREENSHOTS=1): the first page, unfiltered.
      if (process.env.CORRAL_README_SCREENSHOTS === '1') {
        await page.mouse.move(WINDOW.width - 1, 1);
        await page.screenshot({ path: 'docs/incidents.png' });
      }
      // The widest rows: a fork storm's words beside four flags, the longest commands.
      await page
        .getByRole('form', { name: 'Filter incidents' })
        .getByLabel('Flag')
        .selectOption('spawn-storm');
      await expectShown(page, expectedIds(incidents, { flag: 'spawn-storm' }).slice(0, PAGE_SIZE));
      for (const [name, size] of [
        ['1280', WINDOW],
        ['420', POPOVER],
      ] as const) {
        await page.setViewportSize(size);
        expect(await noHorizontalScroll(page), name).toBe(true);
        const table = await page
          .getByRole('table', { name: 'Incident history' })
          .evaluate((t) => ({ scroll: t.scrollWidth, client: t.clientWidth }));
        expect(table.scroll, name).toBeLessThanOrEqual(table.client);
        expect(await withinWidth(page, '.incident-table, .incident-filters, .paging', size.width), name).toBe(
          true,
        );
        const first = page.locator('tr[data-incident-id]').first();
        for (const label of ['Peak memory', 'End', 'CPU'])
          expect(
            await withinWidth(page, `tr[data-incident-id] td[data-label="${label}"]`, size.width),
            `${name} ${label}`,
          ).toBe(true);
        // A command shows more than a few characters: at 1280 the column has room for most of it, in
        // the popover's cards it wraps whole.
        const command = await first.locator('.command-text').evaluate((e) => ({
          width: e.getBoundingClientRect().width,
          scroll: e.scrollWidth,
          client: e.clientWidth,
          text: e.textContent ?? '',
        }));
        expect(command.text.length).toBeGreaterThan(40);
        if (name === '1280') expect(command.width, name).toBeGreaterThan(300);
        else expect(command.scroll, name).toBeLessThanOrEqual(command.client);
        await page.mouse.move(size.width - 1, 1);
        await page.screenshot({ path: `${ARTIFACTS}/incidents-filtered-${name}.png` });
      }
    } finally {
      await page.close();
    }
  });
});
