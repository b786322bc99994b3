import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeAgent } from '../support/fake-agent';
import { readProcStat } from '../support/proc';
import { startServe, type ServeProcess } from '../support/serve-process';
import { removeDir } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';

const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync'];
const SESSION = '7a1c2d3e-5555-4b5c-8d9e-eeeeeeeeeeee';

let browser: Browser;
let serve: ServeProcess | null = null;
let config: string | null = null;

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
});

afterAll(async () => {
  await serve?.stop();
  await browser?.close();
  if (config) removeDir(config);
});

describe('a background task in real Chromium, served by corral serve', () => {
  it('sits under its session marked "background task", unflagged; once the agent is gone it is an orphan', async () => {
    config = realpathSync(mkdtempSync(join(tmpdir(), 'corral-claude-config-')));
    const agent = await FakeAgent.start({
      markers: {
        CLAUDECODE: '1',
        CLAUDE_CODE_ENTRYPOINT: 'cli',
        CLAUDE_CODE_SESSION_ID: SESSION,
        AI_AGENT: 'claude-code_2-1-332_agent',
      },
      env: { CLAUDE_CONFIG_DIR: config },
      sessionFile: true,
      transcript: true,
    });
    const call = await agent.toolCall('sleep 600 >/dev/null 2>&1 & echo started', {
      description: 'Watch the tests',
      background: true,
    });
    await call.exited();
    await waitFor('wrapper gone', () => readProcStat(call.pid) === null);
    serve = await startServe({ pollIntervalMs: 250 });

    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(serve.url);
    const row = page.locator(`tr[data-testid=group-row][data-group-id^="${call.pid}:"]`);
    await page.getByRole('radio', { name: 'All agent groups' }).check();
    await row.waitFor({ state: 'visible', timeout: 15_000 });
    const badge = row.locator('[data-testid=background-task-badge]');
    await badge.waitFor({ state: 'visible', timeout: 15_000 });
    expect(await badge.textContent()).toBe('background task');
    expect(await row.getAttribute('data-background-task')).toBe('true');
    expect(await row.locator('[data-flag]').count()).toBe(0);
    // Under its session's heading: the nearest session row above it is this session's.
    const heading = await row.evaluate((tr) => {
      for (let el = tr.previousElementSibling; el; el = el.previousElementSibling)
        if (el.classList.contains('session-row')) return el.getAttribute('data-session-id');
      return null;
    });
    expect(heading).toBe(SESSION);
    // Not flagged: "Flagged only" (the default view) leaves it out.
    await page.getByRole('radio', { name: 'Flagged only' }).check();
    await row.waitFor({ state: 'detached', timeout: 10_000 });

    process.kill(agent.pid, 'SIGKILL');
    await waitFor('the agent gone', () => readProcStat(agent.pid) === null);
    // A leftover now: shown among the flagged, an orphan, no longer marked.
    await row.locator('[data-flag=orphan]').waitFor({ state: 'visible', timeout: 20_000 });
    expect(await badge.count()).toBe(0);
    expect(await row.getAttribute('data-background-task')).toBeNull();
    expect(errors).toEqual([]);
    await page.close();
  });
});
