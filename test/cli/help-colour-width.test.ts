import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../main/cli/command-table';
import { renderWatchScreen } from '../../main/cli/commands/watch';
import { renderTeardown } from '../../main/cli/commands/kill';
import { fitLine } from '../../main/cli/terminal';
import type { GroupView } from '../../shared/model';
import { runCli } from '../support/run-cli';

const ENV = { CORRAL_CONFIG: '/nonexistent' };
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;
const visible = (line: string) => line.replace(ANSI, '');

function group(pgid: number, flags: GroupView['flags'], cpuPercent: number): GroupView {
  return {
    id: `${pgid}:${pgid}:123456789`,
    pgid,
    sid: pgid,
    leaderPid: pgid,
    leaderAlive: flags.length === 0,
    agent: { name: 'claude-code', pid: 42 },
    flags,
    cpuPercent,
    rssBytes: 5_000_000,
    startedAt: 0,
    containsAgent: false,
    processes: [
      {
        pid: pgid,
        ppid: 1,
        pgid,
        sid: pgid,
        uid: 1000,
        state: 'R',
        startedAt: 0,
        startKey: 1,
        cpuPercent,
        rssBytes: 5_000_000,
        command: `/bin/bash -c source /h/.claude/shell-snapshots/s.sh && eval 'node build.js --watch --verbose --long-flag-${'x'.repeat(80)}' && pwd -P`,
        flags: flags.includes('orphan') ? ['orphan'] : [],
        name: 'node',
        argv: [],
        tty: null,
        cpuSeconds: 1,
      },
    ],
  };
}

describe('corral help, version and usage errors', () => {
  it('prints the version', async () => {
    const r = await runCli(['--version'], { env: ENV });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^corral \d+\.\d+\.\d+\n$/);
  });

  it.each(COMMANDS.map((c) => c.name))('corral %s --help explains the command', async (name) => {
    const r = await runCli([name, '--help'], { env: ENV });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(new RegExp(`^Usage: corral ${name}`));
    expect(r.stdout).toContain('Options:');
    expect(r.stdout).not.toMatch(/Unknown option|positional/);
  });

  it('answers a bad call with one line naming the flag with its dashes', async () => {
    const bad = await runCli(['ps', '--bogus'], { env: ENV });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      "corral ps: unknown option '--bogus'. Usage: corral ps [--all] [--port N] [--session ID] [--json]\n",
    );
    const missing = await runCli(['history', '--limit'], { env: ENV });
    expect(missing.stderr).toBe(
      'corral history: --limit needs a value. Usage: corral history [--agent NAME] [--session ID] [--project PATH] [--flag FLAG] [--since TIME] [--until TIME] [--limit N] [--offset N] [--json]\n',
    );
  });

  it('says PGID 1 is never signalled', async () => {
    const r = await runCli(['kill', '1:1:1'], { env: ENV });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^corral kill: '1:1:1': PGID 1 is never signalled/);
    expect(r.stderr).not.toContain('bare PID');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('colour and width', () => {
  it('colours when forced, and not with NO_COLOR or --no-color', async () => {
    const forced = await runCli(['ps', '--all'], { env: { ...ENV, FORCE_COLOR: '1' } });
    expect(forced.code).toBe(0);
    expect(forced.stdout).toMatch(ANSI);
    const noColorEnv = await runCli(['ps', '--all'], { env: { ...ENV, FORCE_COLOR: '1', NO_COLOR: '1' } });
    expect(noColorEnv.stdout).not.toMatch(ANSI);
    const noColorFlag = await runCli(['ps', '--all', '--no-color'], { env: { ...ENV, FORCE_COLOR: '1' } });
    expect(noColorFlag.stdout).not.toMatch(ANSI);
    const piped = await runCli(['ps', '--all'], { env: ENV });
    expect(piped.stdout).not.toMatch(ANSI);
  });

  it('fits the terminal width, cutting commands with …', async () => {
    const r = await runCli(['ps', '--all'], { env: { ...ENV, COLUMNS: '70' } });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^GROUP\s+PROCS\s+CPU%\s+MEM\s+AGE\s+FLAGS\s+WHAT/);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(70);
  });

  it('cuts coloured lines by what is visible', () => {
    const line = `\x1b[31m${'a'.repeat(20)}\x1b[0m${'b'.repeat(20)}`;
    expect(visible(fitLine(line, 10))).toBe(`${'a'.repeat(9)}…`);
    expect(fitLine(line, 40)).toBe(line);
  });

  it('watch fits 100 × 30: header first, flagged groups first, no line wraps', () => {
    const groups = [
      ...Array.from({ length: 40 }, (_, i) => group(1000 + i, [], i)),
      group(9000, ['orphan', 'leaderless', 'runaway', 'held-pipe'], 99),
    ];
    for (const colour of [true, false]) {
      const screen = renderWatchScreen({
        groups,
        now: 60_000,
        pollIntervalMs: 1000,
        upMs: 5000,
        recent: Array.from(
          { length: 8 },
          (_, i) => `12:00:0${i} orphaned claude-code(42) pid ${i} ${'y'.repeat(120)}`,
        ),
        all: false,
        term: { colour, width: 100, height: 30 },
      });
      expect(screen.length).toBeLessThanOrEqual(29);
      expect(visible(screen[0]!)).toMatch(/^corral watch — 41 groups, 1 flagged/);
      expect(visible(screen[3]!)).toMatch(/^▸ claude-code \(pid 42\)$/);
      expect(visible(screen[4]!)).toMatch(/^9000:9000:123456789 /);
      expect(visible(screen[5]!)).toMatch(/^ +└ 9000 .*orphan +node build\.js --watch/);
      expect(screen.some((l) => /more lines \(flagged groups are listed first\)/.test(visible(l)))).toBe(
        true,
      );
      for (const line of screen) expect(visible(line).length).toBeLessThanOrEqual(100);
    }
  });

  it('reports a clean stop without the SIGCONT that found nobody, and no "(group)"', () => {
    const text = renderTeardown(
      {
        groupId: '19:19:1',
        pgid: 19,
        mode: 'group',
        dryRun: false,
        refused: null,
        startedAt: 0,
        finishedAt: 2,
        signals: [
          { signal: 'SIGTERM', target: '-19', at: 0, result: 'sent' },
          { signal: 'SIGCONT', target: '-19', at: 1, result: 'ESRCH' },
        ],
        processes: [
          { pid: 20, startKey: 1, command: 'sleep 600', outcome: 'exited-after-term', goneAfterMs: 2 },
        ],
        clean: true,
      },
      { colour: false, width: 100, height: 30 },
    );
    expect(text.split('\n')[0]).toBe('Group 19: every targeted process is gone.');
    expect(text).toContain('SIGTERM to group 19: sent');
    expect(text).not.toContain('SIGCONT');
    expect(text).not.toContain('ESRCH');
    expect(text).toMatch(/20\s+ended by SIGTERM\s+2 ms/);
  });
});
