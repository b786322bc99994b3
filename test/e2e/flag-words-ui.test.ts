// Issue 47 "One vocabulary": every flag, every way an incident ends and every duration read the same in
// the CLI (the real `corral history` and `corral ps`) and in the page (real Chromium against a real
// `corral serve`), each word taken from the one table (shared/flags.ts, shared/words/end-words.ts). The test
// walks the tables, so a flag added to them is rendered here with no change to this file: an incident
// flag as a recorded incident, any other flag on a live leftover (today `session-ended`: a leftover of an
// agent session that ended); a new kind of flag that neither can show fails the test until it can.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IncidentStore } from '../../main/core/storage/incident-store';
import { INCIDENT_END_WORDS } from '../../shared/words/end-words';
import {
  FLAG_TABLE,
  GROUP_FLAGS,
  INCIDENT_KINDS,
  type GroupFlag,
  type IncidentKind,
} from '../../shared/flags';
import { formatDuration } from '../../shared/words/format';
import type { GroupView, Incident, IncidentEnd } from '../../shared/model';
import { makeIncident } from '../storage/make-incident';
import { CLAUDE_MARKERS, FakeAgent } from '../support/fake-agent';
import { groupMembers } from '../support/proc';
import { runCli } from '../support/run-cli';
import { startServe, type ServeProcess } from '../support/serve-process';
import { waitFor } from '../support/wait-for';

const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync'];
const BUILT_CLI = fileURLToPath(new URL('../../out/main/corral.js', import.meta.url));
// Long enough to show minutes and seconds: the page said "2m" where the CLI said "2m54s".
const LASTED_MS = 174_000;
// An open incident whose group is gone is closed when serve starts: "still open" is a live group's.
const ENDS = (Object.keys(INCIDENT_END_WORDS) as IncidentEnd[]).filter((e) => e !== 'open');
const LIVE_FLAGS = GROUP_FLAGS.filter((f) => !FLAG_TABLE[f].incident);

let browser: Browser;
let serve: ServeProcess;
const now = Date.now();

/** One closed incident per incident flag, then one per way a closed incident ends. */
function incidents(): Incident[] {
  const byFlag = INCIDENT_KINDS.map((kind, i) => ({ kind, end: 'exited' as IncidentEnd, i }));
  const byEnd = ENDS.map((end, i) => ({ kind: 'orphan' as IncidentKind, end, i: INCIDENT_KINDS.length + i }));
  return [...byFlag, ...byEnd].map(({ kind, end, i }) => {
    const openedAt = now - 3_600_000 - i * 60_000;
    return makeIncident(`words-${i}`, {
      kind,
      flags: [kind],
      end,
      openedAt,
      closedAt: openedAt + LASTED_MS,
      groupId: `${9100 + i}:${9100 + i}:${i}`,
      pgid: 9100 + i,
      sid: 9100 + i,
      processes: [{ pid: 9100 + i, startKey: i, command: `sleep ${600 + i}` }],
    });
  });
}
const recorded = incidents();

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
});

afterAll(async () => {
  await browser?.close();
});

/** A serve of its own for each test (each test's groups, serve's among them, are stopped after it). */
async function openPage(): Promise<Page> {
  serve = await startServe(
    { pollIntervalMs: 250 },
    {
      prepare: (_home, dataDir) => {
        const store = IncidentStore.open(dataDir);
        try {
          store.upsert(recorded);
        } finally {
          store.close();
        }
      },
    },
  );
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(serve.url);
  return page;
}

const cli = (args: string[], stdin?: string) =>
  runCli(args, {
    env: {
      CORRAL_DATA_DIR: join(serve.home, 'data'),
      CORRAL_CONFIG: '/nonexistent',
      COLUMNS: '400',
      NO_COLOR: '1',
    },
    command: [process.execPath, BUILT_CLI],
    ...(stdin === undefined ? {} : { stdin }),
  });

/** `corral history`'s line for an incident: the row that names its group. */
async function historyLines(): Promise<Map<string, string>> {
  const r = await cli(['history']);
  expect(r.code, r.stderr).toBe(0);
  return new Map(recorded.map((i) => [i.id, r.stdout.split('\n').find((l) => l.includes(i.groupId)) ?? '']));
}

/** The word, and that the term is not shown in its place where they differ. */
function expectWordNotTerm(text: string, flag: GroupFlag): void {
  expect(text).toContain(FLAG_TABLE[flag].word);
  if (FLAG_TABLE[flag].word !== flag) expect(text).not.toContain(flag);
}

describe('one table of words, in the CLI and the page', { timeout: 120_000 }, () => {
  it('each incident flag, each end and each duration: corral history and the Incidents page agree', async () => {
    const page = await openPage();
    const lines = await historyLines();
    await page.getByRole('button', { name: 'Incidents' }).click();
    const table = page.getByRole('table', { name: 'Incident history' });
    await table.waitFor();
    const row = (i: Incident) => table.locator(`tr[data-incident-id="${i.id}"]`);
    await row(recorded[0]!).waitFor();

    for (const i of recorded) {
      const line = lines.get(i.id)!;
      expect(line, `corral history has no row for ${i.groupId}`).not.toBe('');
      const flag = i.flags[0]!;
      // The flag: the table's word in the CLI's WHAT and on the page's badge, its help in the tooltip.
      expectWordNotTerm(line, flag);
      const badge = row(i).locator(`[data-flag="${flag}"]`);
      expect(await badge.textContent()).toBe(FLAG_TABLE[flag].word);
      expect(await badge.getAttribute('title')).toContain(FLAG_TABLE[flag].help);
      // How it ended: "stopped by you", never `stopped-by-user`, in both.
      const end = INCIDENT_END_WORDS[i.end];
      expect(line).toContain(end);
      expect(await row(i).locator('td[data-label=End]').textContent()).toBe(end);
      // How long it lasted, in the one format.
      const lasted = formatDuration(LASTED_MS);
      expect(lasted).toBe('2m54s');
      expect(line).toMatch(new RegExp(`\\s${lasted}\\s`));
      expect(await row(i).locator('td[data-label=Duration]').textContent()).toBe(lasted);
    }
    // Each flag the filter offers reads as its word too; its value stays the term.
    const options = await page
      .getByLabel('Flag')
      .locator('option')
      .evaluateAll((els) => els.map((e) => [(e as HTMLOptionElement).value, e.textContent]));
    expect(options).toEqual([['', 'any'], ...INCIDENT_KINDS.map((f) => [f, FLAG_TABLE[f].word])]);
  });

  it('each flag no incident records: on a live leftover in corral ps and on the overview', async () => {
    expect(LIVE_FLAGS.length).toBeGreaterThan(0);
    const page = await openPage();
    // A leftover of a Claude Code session that then ended (the agent gone, SessionEnd recorded).
    const session = randomUUID();
    const agent = await FakeAgent.start({ markers: { ...CLAUDE_MARKERS, CLAUDE_CODE_SESSION_ID: session } });
    const call = await agent.toolCall('sleep 600 & echo started');
    await call.exited();
    process.kill(-agent.pid, 'SIGKILL');
    await waitFor('the agent gone', () => groupMembers(agent.pid).length === 0);
    const end = await cli(['hook', 'claude-code', 'SessionEnd'], JSON.stringify({ session_id: session }));
    expect(end.code, end.stderr).toBe(0);

    const group = await waitFor('the leftover with every live flag in ps', async () => {
      const ps = await cli(['ps', '--all', '--json']);
      const g = (JSON.parse(ps.stdout) as { groups: GroupView[] }).groups.find((x) => x.pgid === call.pid);
      return g && LIVE_FLAGS.every((f) => g.flags.includes(f)) ? g : undefined;
    });
    const ps = await cli(['ps', '--all']);
    const line = ps.stdout.split('\n').find((l) => l.includes(group.id)) ?? '';
    for (const flag of LIVE_FLAGS) expectWordNotTerm(line, flag);

    const row = page.locator(`tr[data-testid=group-row][data-group-id="${group.id}"]`);
    await row.waitFor({ state: 'visible', timeout: 15_000 });
    for (const flag of LIVE_FLAGS) {
      const badge = row.locator(`[data-flag="${flag}"]`);
      await expect.poll(() => badge.count(), { timeout: 10_000 }).toBe(1);
      expect(await badge.textContent()).toBe(FLAG_TABLE[flag].word);
      expect(await badge.getAttribute('title')).toContain(FLAG_TABLE[flag].help);
    }
  });
});
