// `corral history --agent/--session/--project/--flag/--since/--until/--limit/--offset` over 1,000
// incidents written by the real store: the real CLI answers what the incidents say, pages join up, the
// table says when more match, and a value a filter cannot take is a usage error naming the flag.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { IncidentFilter } from '../../shared/contract';
import { INCIDENT_FLAGS } from '../../shared/incident-filter';
import { expectedIds, NEEDLE_PROJECT, NEEDLE_SESSION, writeHistory } from '../support/history-fixture';
import { runCli } from '../support/run-cli';
import { tempDirRemovedAfterAll } from '../support/temp-dirs';
import type { Incident } from '../../shared/model';

const home = tempDirRemovedAfterAll('corral-history-cli-');
const env = { HOME: home, CORRAL_DATA_DIR: join(home, 'data'), CORRAL_CONFIG: join(home, 'config.json') };
const written = Date.now();
let incidents: Incident[];

beforeAll(() => {
  incidents = writeHistory(env.CORRAL_DATA_DIR, written);
});

async function historyIds(args: string[]): Promise<string[]> {
  const result = await runCli(['history', '--json', '--limit', '10000', ...args], { env });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return (JSON.parse(result.stdout) as { incidents: Incident[] }).incidents.map((i) => i.id);
}

// A span back from now is read at the CLI's now, some time after `written`: the answer must lie
// between what the filter gives at the moments just before and just after the CLI ran.
const at = (msAgo: number) => new Date(written - msAgo).toISOString();
const CASES: [string[], (now: number) => IncidentFilter][] = [
  [['--agent', 'codex'], () => ({ agent: 'codex' })],
  [['--session', NEEDLE_SESSION], () => ({ sessionId: NEEDLE_SESSION })],
  [['--session', 'needle-s'], () => ({ sessionId: 'needle-s' })],
  [['--project', NEEDLE_PROJECT], () => ({ project: NEEDLE_PROJECT })],
  ...INCIDENT_FLAGS.map((flag): [string[], () => IncidentFilter] => [['--flag', flag], () => ({ flag })]),
  [['--since', '2h'], (now) => ({ sinceMs: now - 7_200_000 })],
  [['--since', '1h30m', '--flag', 'runaway'], (now) => ({ sinceMs: now - 5_400_000, flag: 'runaway' })],
  [['--until', at(9_000_000)], () => ({ untilMs: written - 9_000_000 })],
  [
    ['--agent', 'claude-code', '--since', at(9_500_000), '--until', '150m'],
    (now) => ({ agent: 'claude-code', sinceMs: written - 9_500_000, untilMs: now - 9_000_000 }),
  ],
];

describe('corral history, filtered', () => {
  it.each(CASES)('history %j answers what the incidents say', async (args, filter) => {
    const before = expectedIds(incidents, filter(Date.now()));
    const ids = await historyIds(args);
    const after = expectedIds(incidents, filter(Date.now()));
    const all = new Set([...before, ...after]);
    expect(before.length).toBeGreaterThan(0);
    expect(all.size).toBeLessThan(incidents.length);
    expect(ids.filter((id) => all.has(id))).toEqual(ids);
    for (const id of before.filter((id) => after.includes(id))) expect(ids).toContain(id);
    // Newest first.
    expect(ids).toEqual(expectedIds(incidents, {}).filter((id) => ids.includes(id)));
  });

  it('finds the session the newest 100 bury, and pages with --limit and --offset', async () => {
    const newest = await runCli(['history', '--json'], { env });
    expect((JSON.parse(newest.stdout) as { incidents: Incident[] }).incidents.map((i) => i.id)).not.toContain(
      'inc-0900',
    );
    expect(await historyIds(['--session', NEEDLE_SESSION])).toEqual([
      'inc-0900',
      'inc-0901',
      'inc-0902',
      'inc-0903',
    ]);
    const whole = expectedIds(incidents, { flag: 'spawn-storm' });
    const first = await historyIds(['--flag', 'spawn-storm', '--limit', '100']);
    const second = await historyIds(['--flag', 'spawn-storm', '--limit', '10000', '--offset', '100']);
    expect([...first.slice(0, 100), ...second]).toEqual(whole);
  });

  it('says in the table when more match, and how to see them', async () => {
    const table = await runCli(['history', '--flag', 'held-pipe', '--limit', '5'], {
      env: { ...env, COLUMNS: '200' },
    });
    expect(table.code).toBe(0);
    const shown = expectedIds(incidents, { flag: 'held-pipe' }).slice(0, 5);
    for (const id of shown) {
      const incident = incidents.find((i) => i.id === id)!;
      expect(table.stdout).toContain(incident.groupId);
    }
    expect(table.stdout).toContain('More match: add --offset 5 for the next 5.');
    const none = await runCli(['history', '--agent', 'nobody'], { env });
    expect(none.stdout.trim()).toBe('No incidents match.');
  });

  it.each([
    [['--flag', 'session-ended'], /--flag: expected one of orphan, leaderless, runaway/],
    [['--since', 'yesterday'], /--since: expected a span back from now/],
    [['--offset', 'next'], /--offset: expected 0\.\./],
    [['--session', ''], /--session: expected a value/],
  ])('refuses %j with a usage error naming the flag', async (args, message) => {
    const result = await runCli(['history', ...args], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});
