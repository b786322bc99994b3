// A dev server drifting up the ports, seen in the UI: three agent sessions each start it, the first two
// on :P and :P+1 end, the third holds :P+2. Its row shows the earlier holders (from the incidents the
// running Corral recorded) and the drift :P → :P+1 → :P+2. Real `corral serve`, real listeners, real
// Chromium at the menu-bar popover's size (420 × 700); a screenshot goes to test-artifacts/.
import { mkdirSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { neighbouringFreePorts, startDevServerCall, writeDevServerScript } from '../support/dev-server';
import { groupMembers } from '../support/proc';
import { startServe, type ServeProcess } from '../support/serve-process';
import { waitFor } from '../support/wait-for';
import { tempDirsRemovedAfterEach } from '../support/temp-dirs';

const ARTIFACTS = 'test-artifacts';
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync'];
const POPOVER = { width: 420, height: 700 };

let browser: Browser;
let serve: ServeProcess | null = null;
const tempDir = tempDirsRemovedAfterEach();

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
});

afterAll(async () => {
  await serve?.stop();
  await browser?.close();
});

describe('port history in the UI at 420 × 700', () => {
  it("a server's row lists who held its port and the ports below it, and the drift", async () => {
    serve = await startServe({ pollIntervalMs: 250 });
    const page = await browser.newPage({ viewport: POPOVER });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(serve.url);

    const project = tempDir('corral-ui-drift-project-');
    mkdirSync(join(project, '.git'));
    const script = writeDevServerScript(tempDir('corral-ui-drift-server-'), 'dev-server.mjs');
    const port = await neighbouringFreePorts(3);
    const sessions = [randomUUID(), randomUUID(), randomUUID()];
    const pgids: number[] = [];
    for (const [n, session] of sessions.entries()) {
      const readyDir = tempDir('corral-ui-drift-ready-');
      const description = 'Start the dev server';
      const call = await startDevServerCall({
        script,
        port: port + n,
        project,
        session,
        readyDir,
        description,
      });
      pgids.push(call.pid);
      const row = page.locator(`tr[data-testid=group-row][data-group-id^="${call.pid}:"]`);
      // The row shows the port once a view read it; that same view noted it on the group's incident.
      await expect
        .poll(() => row.locator('[data-testid=group-ports]').textContent(), { timeout: 60_000 })
        .toBe(`:${port + n}`);
      if (n < 2) {
        // History comes from incidents: the server is seen as a leftover (a flag, which opens its group's
        // incident) before it goes. CI once lost :P here: the flag rose between two polls, the incident
        // waited for the next poll, and the group was gone by then (test/monitor/flagged-between-polls).
        await row.locator('[data-flag]').first().waitFor({ state: 'visible', timeout: 60_000 });
        // The session's server is gone before the next session starts its own (the test's own group).
        process.kill(-call.pid, 'SIGTERM');
        await waitFor(`group ${call.pid} gone`, () => groupMembers(call.pid).length === 0);
        await row.waitFor({ state: 'detached', timeout: 15_000 });
      }
    }

    const row = page.locator(`tr[data-testid=group-row][data-group-id^="${pgids[2]}:"]`);
    const history = row.locator('[data-testid=port-history]');
    await history.waitFor({ state: 'visible', timeout: 30_000 });
    await expect
      .poll(() => row.locator('[data-testid=port-drift]').textContent(), { timeout: 30_000 })
      .toBe(`drift :${port} → :${port + 1} → :${port + 2}`);
    const rows = await row.locator('[data-testid=port-history-row]').allTextContents();
    // Newest first; each names its port, session, project, how it ended, and its command.
    expect(rows).toHaveLength(2);
    const name = project.split('/').pop()!;
    expect(rows[0]).toMatch(
      new RegExp(
        `^:${port + 1} session ${sessions[1]!.slice(0, 8)} · ${name} · \\S+ ago, exited \\S+ ago · .*dev-server\\.mjs ${port + 1} `,
      ),
    );
    expect(rows[1]).toMatch(
      new RegExp(
        `^:${port} session ${sessions[0]!.slice(0, 8)} · ${name} · \\S+ ago, exited \\S+ ago · .*dev-server\\.mjs ${port} `,
      ),
    );
    expect(await row.locator('[data-testid=port-history] ul').getAttribute('aria-label')).toBe(
      `Earlier on :${port + 2}`,
    );
    // The popover keeps its width: the history is cut with an ellipsis, never scrolled sideways.
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await row.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, 'port-history-420x700.png') });
    expect(errors).toEqual([]);
    await page.close();
  });
});
