// The triage UI at the two sizes it is designed for: the menu-bar popover (420 × 700) and a window
// (1280 × 800). A real `corral serve`, a fake agent whose tool calls leak real processes while the
// page is open (from a git work tree, with a session id and a transcript naming each call), real
// Chromium. Screenshots of every page at both sizes go to test-artifacts/.
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeAgent } from '../support/fake-agent';
import { groupMembers, isAlive, readProcStat } from '../support/proc';
import { removeDir, tempDirForTest } from '../support/spawned-groups';
import { startServe } from '../support/serve-process';
import { waitFor } from '../support/wait-for';
import { freePort, gitWorkTree, waitListening } from '../provenance/live-support';

const ARTIFACTS = 'test-artifacts';
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync'];
const POPOVER = { width: 420, height: 700 };
const WINDOW = { width: 1280, height: 800 };
const SESSION = '5d2c9e41-0b7a-4f0e-9d3c-6a1b2c3d4e5f';
// A busy loop on a loaded 2-core CI machine may get a fraction of a core: a low threshold keeps
// "runaway" about the loop, not about the machine's load (sleep uses ~0 %).
const CONFIG = {
  pollIntervalMs: 250,
  runaway: { cpuPercent: 5, windowSeconds: 1 },
  teardown: { graceMs: 1500 },
};

let browser: Browser;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
});

afterAll(async () => {
  await browser?.close();
});

/**
 * A Claude Code–style wrapper: `source …/shell-snapshots/… && eval '<cmd>' && pwd -P >| …-cwd`, its
 * `-cwd` file in the test's directory (removed after it), not the fixed one in /tmp it would leave.
 */
function claudeWrapper(snapshotDir: string, cmd: string): string {
  return `source ${snapshotDir}/shell-snapshots/snapshot-bash-1.sh && eval '${cmd}' && pwd -P >| ${snapshotDir}/claude-e2e-cwd`;
}

async function rowOrder(page: Page): Promise<string[]> {
  return page
    .locator('tr[data-testid=group-row]')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-group-id')!));
}

/**
 * With CORRAL_README_SCREENSHOTS=1 (scripts/readme-screenshots.sh), the README's pictures are taken
 * from this very scene: the pointer moved off the page first, so no tooltip covers them, and the
 * hook offer answered.
 */
async function readmeShot(page: Page, name: 'overview-popover.png' | 'timeline.png'): Promise<void> {
  if (process.env.CORRAL_README_SCREENSHOTS !== '1') return;
  // The one-time hook offer is answered as a user would, once: the pictures show the leaks.
  const notNow = page.getByTestId('hook-offer').getByRole('button', { name: 'Not now' });
  if (await notNow.isVisible()) await notNow.click();
  await page.mouse.move(page.viewportSize()!.width - 1, 1);
  await page.screenshot({ path: `docs/${name}` });
}

async function noHorizontalScroll(page: Page): Promise<boolean> {
  return (await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')) === true;
}

describe('triage UI at 420 × 700 and 1280 × 800', () => {
  it('orders by urgency, tells the story of a leak born while the page is open, and keeps Stop in reach', async () => {
    const home = tempDirForTest('corral-e2e-home-');
    mkdirSync(join(home, 'shell-snapshots'));
    writeFileSync(join(home, 'shell-snapshots', 'snapshot-bash-1.sh'), '# snapshot\n');
    const serve = await startServe(CONFIG);
    const { root, sub } = gitWorkTree();
    const config = realpathSync(tempDirForTest('corral-e2e-claude-'));
    const agent = await FakeAgent.start({
      markers: { CLAUDECODE: '1', CLAUDE_CODE_SESSION_ID: SESSION, CLAUDE_PID: '$PID' },
      env: { CLAUDE_CONFIG_DIR: config },
      cwd: sub,
      sessionFile: true,
      transcript: true,
    });
    const page = await browser.newPage({ viewport: WINDOW });
    const errors: string[] = [];
    const notFound: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('response', (r) => {
      if (r.status() === 404) notFound.push(r.url());
    });
    await page.goto(serve.url);
    await page.getByTestId('no-groups').waitFor();
    expect(await page.getByTestId('no-groups').textContent()).toMatch(
      /^All clear — \d+ agents? running, nothing left behind/,
    );
    await page.screenshot({ path: `${ARTIFACTS}/triage-empty-1280.png` });

    // Born while the page is open: a quiet leftover, then a runaway one.
    const quiet = await agent.toolCall(claudeWrapper(home, 'sleep 600 &'));
    await quiet.exited();
    const serverPort = await freePort();
    const server = await agent.toolCall(
      claudeWrapper(home, `python3 -m http.server ${serverPort} --bind 127.0.0.1 >/dev/null 2>&1 &`),
      { description: 'Serve the docs' },
    );
    await server.exited();
    await waitListening(serverPort);
    const hot = await agent.toolCall(
      claudeWrapper(home, 'sleep 601 & until false; do :; done 2>/dev/null & sleep 2'),
    );
    // Its shell lives two seconds after starting them: Corral sees it, its exit and the reparenting.
    await hot.exited();
    await waitFor('wrappers gone', () => readProcStat(quiet.pid) === null && readProcStat(hot.pid) === null);
    const hotMembers = groupMembers(hot.pid).map((m) => m.pid);
    expect(hotMembers).toHaveLength(2);

    const hotRow = page.locator(`tr[data-testid=group-row][data-group-id^="${hot.pid}:"]`);
    const quietRow = page.locator(`tr[data-testid=group-row][data-group-id^="${quiet.pid}:"]`);
    const serverRow = page.locator(`tr[data-testid=group-row][data-group-id^="${server.pid}:"]`);
    await expect.poll(() => hotRow.getAttribute('data-severity'), { timeout: 15_000 }).toBe('critical');
    await quietRow.waitFor();
    // Triage order: the runaway first although its PGID is higher and it started later, then the two quiet
    // orphans oldest first (a stable order: quiet groups do not swap places as their readings wander).
    await expect
      .poll(async () => (await rowOrder(page)).map((id) => Number(id.split(':')[0])), { timeout: 10_000 })
      .toEqual([hot.pid, quiet.pid, server.pid]);
    // The command that matters, not the wrapper: the tool call's, as the agent wrote it (from its
    // transcript); the full line on hover.
    await expect
      .poll(() => quietRow.locator('.command-text').textContent(), { timeout: 10_000 })
      .toBe('sleep 600 &');
    expect(await hotRow.locator('[data-flag=runaway]').getAttribute('title')).toMatch(/^Runaway: /);
    const hotAgent = page.locator('tbody[data-testid=agent]', { has: hotRow });
    expect(await hotAgent.getByTestId('agent-totals').textContent()).toMatch(/^\d+ procs · CPU \d+% · /);
    expect(
      await hotAgent.getByRole('button', { name: /^Stop all \d+ orphans? of claude-code…$/ }).isVisible(),
    ).toBe(true);
    expect(await noHorizontalScroll(page)).toBe(true);

    // Whose it is: one heading for the session (project, short id, agent alive), the tool call's
    // description, the cwd inside the project and the port on the row; search by port.
    const heading = page.locator(`tr[data-testid=agent-session][data-session-id="${SESSION}"]`);
    await heading.waitFor();
    expect(await heading.locator('.session-project').textContent()).toBe(basename(root));
    expect(await heading.locator('.session-id').textContent()).toBe(SESSION.slice(0, 8));
    await expect.poll(() => heading.getByTestId('session-agent').textContent()).toBe('agent alive');
    expect(await heading.getByTestId('session-age').textContent()).toMatch(/^first leftover \d+[sm] ago$/);
    await expect
      .poll(() => serverRow.getByTestId('tool-description').textContent(), { timeout: 10_000 })
      .toBe('Serve the docs');
    await expect
      .poll(() => serverRow.locator('.command-text').textContent())
      .toBe(`python3 -m http.server ${serverPort} --bind 127.0.0.1 >/dev/null 2>&1 &`);
    expect(await serverRow.getByTestId('group-cwd').textContent()).toBe('web/app');
    await expect
      .poll(() => serverRow.getByTestId('group-ports').textContent(), { timeout: 10_000 })
      .toBe(`:${serverPort}`);
    const search = page.getByRole('searchbox', { name: 'Search by command or port' });
    await search.fill(`:${serverPort}`);
    await expect.poll(() => rowOrder(page)).toEqual([await serverRow.getAttribute('data-group-id')]);
    await page.screenshot({ path: `${ARTIFACTS}/search-port-1280.png` });
    await search.fill('');
    await expect.poll(async () => (await rowOrder(page)).length).toBe(3);
    await page.screenshot({ path: `${ARTIFACTS}/overview-1280.png` });

    // The timeline of the leak: the tool-call shell's exit, the reparenting, orphaned and runaway spans.
    await hotRow.getByRole('button', { name: `Show timeline of group ${hot.pid}` }).click();
    const timeline = page.getByTestId('timeline');
    await timeline.waitFor();
    expect(await page.locator('.overview-page').getAttribute('data-layout')).toBe('split');
    const markerKinds = () =>
      timeline
        .locator('[data-testid=marker]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')));
    await expect
      .poll(markerKinds, { timeout: 10_000 })
      .toEqual(expect.arrayContaining(['started', 'exited', 'leader-exited', 'reparented']));
    const wrapperLane = timeline.locator(`[data-testid=lane][data-pid="${hot.pid}"]`);
    expect(await wrapperLane.getAttribute('data-exited')).toBe('true');
    await expect
      .poll(() => timeline.locator('[data-testid=segment][data-kind=runaway]').count(), { timeout: 10_000 })
      .toBeGreaterThan(0);
    expect(await timeline.locator('[data-testid=segment][data-kind=orphaned]').count()).toBeGreaterThan(0);
    await expect
      .poll(() => page.getByTestId('timeline-summary').textContent())
      .toMatch(/^started by claude-code .* orphaned at .* runaway since .* CPU burned /);
    expect(await page.getByTestId('cpu-scale').textContent()).toMatch(/% of one core/);
    const runawayLane = timeline
      .locator('[data-testid=lane]')
      .filter({ has: page.locator('[data-kind=runaway]') });
    const box = (await runawayLane.first().locator('.lane-plot').boundingBox())!;
    await page.mouse.move(box.x + box.width - 4, box.y + box.height / 2);
    await expect.poll(() => page.getByTestId('tooltip-point').textContent()).toMatch(/ · CPU \d+%$/);
    await page.screenshot({ path: `${ARTIFACTS}/timeline-1280.png` });
    await readmeShot(page, 'timeline.png');

    // The popover: the timeline is its own screen with a way back; the list fits, Stop in view.
    await page.setViewportSize(POPOVER);
    await expect
      .poll(() => page.locator('.overview-page').getAttribute('data-layout'))
      .toBe('timeline-screen');
    expect(await noHorizontalScroll(page)).toBe(true);
    await page.screenshot({ path: `${ARTIFACTS}/timeline-420.png` });
    await page.getByRole('button', { name: '← Back to groups' }).click();
    const stop = hotRow.getByRole('button', { name: `Stop group ${hot.pid}…` });
    await stop.waitFor();
    const stopBox = (await stop.boundingBox())!;
    expect(stopBox.x).toBeGreaterThanOrEqual(0);
    expect(stopBox.x + stopBox.width).toBeLessThanOrEqual(POPOVER.width);
    expect(await noHorizontalScroll(page)).toBe(true);
    const filters = (await page.locator('fieldset.segmented').boundingBox())!;
    expect(filters.height).toBeLessThan(40);
    await page.screenshot({ path: `${ARTIFACTS}/overview-420.png` });
    await readmeShot(page, 'overview-popover.png');

    await stop.click();
    const dialog = page.getByTestId('stop-dialog');
    await expect
      .poll(() => dialog.locator('p').filter({ hasText: 'SIGTERM' }).textContent())
      .toBe('These 2 processes will get SIGTERM, then SIGKILL after 1.5 s if still running:');
    await page.screenshot({ path: `${ARTIFACTS}/stop-dialog-420.png` });
    await dialog.getByRole('button', { name: 'Stop', exact: true }).click();
    await expect
      .poll(() => page.getByTestId('stop-outcome').getAttribute('data-status'), { timeout: 10_000 })
      .toBe('done');
    expect(await page.locator('[data-testid=outcomes] .outcome-label').allTextContents()).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^ended by SIG(TERM|KILL)|^did not stop on SIGTERM; ended by SIGKILL/),
      ]),
    );
    expect(groupMembers(hot.pid)).toEqual([]);
    await page.screenshot({ path: `${ARTIFACTS}/stop-outcome-420.png` });
    await page.getByRole('button', { name: 'Close' }).click();

    // "Stop everything this session left", in the popover: every process of both remaining leftovers
    // listed, both stopped through the core's one stop path, the agent kept.
    const stopSession = heading.getByRole('button', {
      name: `Stop everything session ${SESSION.slice(0, 8)} left…`,
    });
    await stopSession.waitFor();
    const sessionBox = (await stopSession.boundingBox())!;
    expect(sessionBox.x + sessionBox.width).toBeLessThanOrEqual(POPOVER.width);
    expect(await noHorizontalScroll(page)).toBe(true);
    await page.screenshot({ path: `${ARTIFACTS}/overview-sessions-420.png` });
    const leftoverPids = [...groupMembers(quiet.pid), ...groupMembers(server.pid)].map((m) => m.pid);
    await stopSession.click();
    const sessionDialog = page.getByTestId('stop-session-dialog');
    await sessionDialog.waitFor();
    const listed = await sessionDialog
      .locator('[data-testid=stop-targets] li')
      .evaluateAll((lis) => lis.map((li) => Number(li.getAttribute('data-pid'))));
    expect(listed.sort()).toEqual(leftoverPids.sort());
    await page.screenshot({ path: `${ARTIFACTS}/stop-session-dialog-420.png` });
    await sessionDialog.getByRole('button', { name: 'Stop', exact: true }).click();
    await expect
      .poll(
        () =>
          sessionDialog
            .getByTestId('stop-outcome')
            .evaluateAll((els) => els.map((e) => e.getAttribute('data-status'))),
        { timeout: 15_000 },
      )
      .toEqual(['done', 'done']);
    expect(groupMembers(quiet.pid)).toEqual([]);
    expect(groupMembers(server.pid)).toEqual([]);
    expect(isAlive(agent.pid)).toBe(true);
    await page.screenshot({ path: `${ARTIFACTS}/stop-session-outcome-420.png` });
    await sessionDialog.getByRole('button', { name: 'Close' }).click();

    for (const [name, size] of [
      ['420', POPOVER],
      ['1280', WINDOW],
    ] as const) {
      await page.setViewportSize(size);
      await page.getByRole('button', { name: 'Incidents' }).click();
      await page.getByRole('table', { name: 'Incident history' }).waitFor();
      await page.screenshot({ path: `${ARTIFACTS}/incidents-${name}.png` });
      await page.getByRole('button', { name: 'Settings' }).click();
      await page.getByRole('button', { name: 'Save' }).waitFor();
      await page.screenshot({ path: `${ARTIFACTS}/settings-${name}.png` });
      await page.getByRole('button', { name: 'Overview' }).click();
    }

    // serve restarts on the same port with a new token: the open page says so instead of looping.
    const port = new URL(serve.url).port;
    expect(await serve.stop()).toBe(0);
    await page.getByTestId('connection-lost').waitFor({ timeout: 10_000 });
    const restarted = await startServe(CONFIG, { port: Number(port) });
    const message = page.getByTestId('server-restarted');
    await message.waitFor({ timeout: 15_000 });
    expect(await message.textContent()).toMatch(
      /server restarted .* Open the new address that corral serve printed/,
    );
    await page.screenshot({ path: `${ARTIFACTS}/server-restarted-1280.png` });
    await page.setViewportSize(POPOVER);
    await page.screenshot({ path: `${ARTIFACTS}/server-restarted-420.png` });

    expect(errors).toEqual([]);
    expect(notFound).toEqual([]);
    await page.close();
    expect(await restarted.stop()).toBe(0);
    removeDir(root);
    removeDir(config);
  });
});
