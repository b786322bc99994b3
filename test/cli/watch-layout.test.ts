// The interactive `corral watch` in tmux at 80×24 and 120×40 while a fake agent's real leaks appear
// and are stopped: one header line however the group count changes (none left stacked above), the
// key help whole with `q quit`, WHAT readable, the events filling the rows the list leaves, and `/`
// selecting the first match. The screen is read with `tmux capture-pane -p`.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FakeAgent, type ToolCall } from '../support/fake-agent';
import { groupMembers } from '../support/proc';
import { tempDirForTest } from '../support/spawned-groups';
import { Tmux } from '../support/tmux';
import { waitFor } from '../support/wait-for';

const CLI = fileURLToPath(new URL('../../main/cli/corral.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url));
const HEADER = /corral watch — (\d+) groups?/;
const GROUP_ROW = /^[› ] (\d+:\d+:\d+) /;

const lines = (screen: string): string[] => screen.replace(/\n+$/, '').split('\n');
const groupRows = (screen: string): string[] => lines(screen).filter((l) => GROUP_ROW.test(l));
const rowId = (line: string): string => GROUP_ROW.exec(line)?.[1] ?? '';
const selectedId = (screen: string): string => rowId(groupRows(screen).find((l) => l.startsWith('›')) ?? '');
const eventLines = (screen: string): string[] => {
  const all = lines(screen);
  const at = all.indexOf('Recent events:');
  return at < 0 ? [] : all.slice(at + 1).filter((l) => l.trim() !== '');
};

/** What any screen must be, whatever the group count: one header on the first line, the keys whole. */
function expectLaidOut(screen: string, size: { columns: number; rows: number }, groups: number): void {
  const all = lines(screen);
  expect(all.length, screen).toBeLessThanOrEqual(size.rows);
  expect(
    all.filter((l) => HEADER.test(l)),
    screen,
  ).toHaveLength(1);
  expect(HEADER.exec(all[0]!)?.[1], screen).toBe(String(groups));
  expect(all[1], screen).toMatch(/q quit$/);
  expect(all[1], screen).toContain('/ search');
  for (const l of all) expect(l.length, l).toBeLessThanOrEqual(size.columns);
  if (groups > 0) {
    // The table starts right under the header and the keys.
    expect(all[2], screen).toMatch(/^\s+GROUP\s+PROCS\s+CPU%\s+MEM\s+AGE\s+FLAGS\s+WHAT/);
    expect(groupRows(screen), screen).toHaveLength(groups);
  }
}

/** The leaks' rows (the agent's own group is listed too, unflagged). */
function sleepRows(screen: string): string[] {
  return groupRows(screen).filter((l) => /sleep 60\d$/.test(l));
}

describe.each([
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 },
])('corral watch at $columns×$rows', (size) => {
  it('keeps one header while groups come and go, shows the keys whole, and / selects the first match', async () => {
    const home = tempDirForTest('corral-watch-home-');
    const agent = await FakeAgent.start({
      markers: { CLAUDECODE: '1', CLAUDE_CODE_SESSION_ID: 'sess-watch-layout-01', CLAUDE_PID: '$PID' },
    });
    const tmux = new Tmux(size);
    const env = [
      `PATH=${process.env.PATH ?? '/usr/bin:/bin'}`,
      `HOME=${home}`,
      `CORRAL_DATA_DIR=${join(home, 'data')}`,
      'CORRAL_CONFIG=/nonexistent',
      'TERM=xterm-256color',
    ];
    tmux.start(`env -i ${env.join(' ')} ${process.execPath} ${TSX} ${CLI} watch`);
    try {
      // The agent's own group first.
      let screen = await tmux.waitScreen('watch started', (s) => groupRows(s).length === 1);
      expectLaidOut(screen, size, 1);

      // Leaks appear one by one: the header says each new count, once.
      const leaks: ToolCall[] = [];
      for (const n of [1, 2, 3]) {
        const leak = await agent.toolCall(`sleep 60${n} >/dev/null 2>&1 & echo started`);
        await leak.closed();
        leaks.push(leak);
        // Listed once its tool call's shell is gone: WHAT shows the command whole, beside the flag in
        // words.
        screen = await tmux.waitScreen(
          `leak ${n} listed`,
          (s) =>
            groupRows(s).some((l) => new RegExp(`orphan\\s+sleep 60${n}$`).test(l)) &&
            groupRows(s).length === n + 1,
        );
        expectLaidOut(screen, size, n + 1);
      }

      // One is stopped (by the test, by the group it started): the count goes down, nothing stacks.
      process.kill(-leaks[0]!.pid, 'SIGKILL');
      await waitFor('the first leak gone', () => groupMembers(leaks[0]!.pid).length === 0);
      screen = await tmux.waitScreen(
        'two leaks left',
        (s) => groupRows(s).length === 3 && !groupRows(s).some((l) => l.includes('sleep 601')),
      );
      expectLaidOut(screen, size, 3);

      // The events take the rows the list leaves: at 40 rows, more than the last three (three leaks
      // and a stop made nine or more).
      if (size.rows >= 40) expect(eventLines(screen).length, screen).toBeGreaterThan(3);
      else expect(eventLines(screen).length, screen).toBeGreaterThanOrEqual(3);

      // The second row selected, then `/sleep`: both match, and the first match is selected.
      const [firstRow, secondRow] = sleepRows(screen).map(rowId);
      expect(groupRows(screen).map(rowId).slice(0, 2)).toEqual([firstRow, secondRow]);
      tmux.keys('Down');
      await tmux.waitScreen('the second row selected', (s) => selectedId(s) === secondRow);
      tmux.keys('/');
      tmux.type('sleep');
      tmux.keys('Enter');
      screen = await tmux.waitScreen('the search applied', (s) => s.includes('search: sleep'));
      expect(groupRows(screen).map(rowId), screen).toEqual([firstRow, secondRow]);
      expect(selectedId(screen), screen).toBe(firstRow);
      expectLaidOut(screen, size, 2);
    } finally {
      // The agent and its leaks are tracked groups, stopped after the test by their ids.
      await tmux.close();
    }
  });
});
