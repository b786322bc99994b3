// The seed's loop leaked by a tool call on a machine whose cores are taken by other programs' busy loops:
// it gets well under a core, yet it is runnable all the time, so it is a runaway at the default threshold.
// Flagged alike by `watch --json`, `ps --json`, the page (real Chromium on a real `corral serve`) and the
// incident. The neighbours run in process groups of their own, removed by PGID after the test.
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GroupView, Incident } from '../../shared/model';
import { FakeAgent } from '../support/fake-agent';
import { groupMembers } from '../support/proc';
import { runCli } from '../support/run-cli';
import { startServe } from '../support/serve-process';
import { tempDirForTest } from '../support/spawned-groups';
import { startBusyNeighbours, startWatchJson } from '../support/watch-json';
import { describeEvents, waitFor } from '../support/wait-for';

const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync'];
// The default threshold; a short window keeps the test short.
const CONFIG = { runaway: { cpuPercent: 80, windowSeconds: 5 } };
const NEIGHBOURS_PER_CORE = 2;

let browser: Browser;

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
});

afterAll(async () => {
  await browser?.close();
});

/** /proc/<pid>/schedstat: nanoseconds run and waited on a run queue. */
function schedstat(pid: number): { runNs: number; waitNs: number } {
  const [run, wait] = readFileSync(`/proc/${pid}/schedstat`, 'latin1').trim().split(' ').map(Number);
  return { runNs: run!, waitNs: wait! };
}

describe('the seed loop beside busy neighbours', () => {
  it('is flagged runaway by watch --json, ps --json, the page and the incident', async () => {
    await startBusyNeighbours(NEIGHBOURS_PER_CORE * availableParallelism());
    const serve = await startServe(CONFIG);

    const dataDir = tempDirForTest('corral-watch-');
    const configPath = join(tempDirForTest('corral-config-'), 'config.json');
    writeFileSync(configPath, JSON.stringify(CONFIG));
    const env = { PATH: process.env.PATH ?? '', HOME: serve.home, CORRAL_CONFIG: configPath };
    const { events } = startWatchJson({ ...env, CORRAL_DATA_DIR: dataDir });

    const agent = await FakeAgent.start();
    await waitFor('the watcher to see the agent', () =>
      events.some((e) => e.type === 'group-started' && e.pgid === agent.pid),
    );
    const call = await agent.toolCall('until false; do :; done 2>/dev/null & echo started');
    await call.exited();
    const loop = await waitFor('the loop alone in its group', () => {
      const members = groupMembers(call.pid);
      return members.length === 1 && members[0]!.pid !== call.pid ? members[0]!.pid : undefined;
    });
    const before = schedstat(loop);
    const runaway = await waitFor(
      'a runaway event from watch --json',
      () => events.find((e) => e.type === 'runaway' && e.pgid === call.pid),
      { timeoutMs: 60_000, explain: () => describeEvents(events) },
    );
    expect(runaway.pid).toBe(loop);
    expect(runaway.agent?.name).toBe('claude-code');
    const after = schedstat(loop);
    const share = (after.runNs - before.runNs) / (after.runNs - before.runNs + after.waitNs - before.waitNs);
    // Contended: while it was watched, it waited for a CPU for more than a fifth of the time it wanted one,
    // so no reading of the share it received could cross the threshold.
    expect(share).toBeLessThan(0.8);
    expect(Number(runaway.detail?.demandPercent)).toBeGreaterThanOrEqual(80);

    const ps = await runCli(['ps', '--json'], { env: { CORRAL_CONFIG: configPath } });
    expect(ps.code, ps.stderr).toBe(0);
    const listed = (JSON.parse(ps.stdout) as { groups: GroupView[] }).groups.find((g) => g.pgid === call.pid);
    expect(listed?.flags).toContain('runaway');
    expect(listed?.processes.find((p) => p.pid === loop)?.flags).toContain('runaway');

    const page = await browser.newPage();
    await page.goto(serve.url);
    const row = page.locator(`tr[data-testid=group-row][data-group-id^="${call.pid}:"]`);
    await row.locator('[data-flag=runaway]').waitFor({ timeout: 60_000 });
    await row.getByRole('button', { name: `Show timeline of group ${call.pid}` }).click();
    await expect
      .poll(() => page.locator('[data-testid=segment][data-kind=runaway]').count(), { timeout: 15_000 })
      .toBeGreaterThan(0);
    await page.close();

    for (const store of [dataDir, join(serve.home, 'data')]) {
      const incident = await waitFor(`the incident in ${store} with its runaway phase`, async () => {
        const history = await runCli(['history', '--json'], { env: { CORRAL_DATA_DIR: store } });
        const { incidents } = JSON.parse(history.stdout) as { incidents: Incident[] };
        return incidents.find((i) => i.pgid === call.pid && i.phases.runaway.length > 0);
      });
      expect(incident.flags).toContain('runaway');
      expect(incident.phases.runaway[0]?.until).toBeNull();
    }
  }, 180_000);
});
