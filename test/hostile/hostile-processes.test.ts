import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LinuxSampler } from '../../main/core/sampling/linux/linux-sampler';
import type { GroupView, ProcessView, TeardownResult } from '../../shared/model';
import { nativeFixture } from '../faults/native/native-fixtures';
import { groupMembers, isAlive, readProcStat } from '../support/proc';
import { runCli } from '../support/run-cli';
import { cleanEnv, spawnGroup, tempDirForTest, type SpawnedGroup } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';
import { bashBytes, HOSTILE_ARGS, HOSTILE_NAMES } from './hostile-names';

interface PsJson {
  sampledAt: number;
  groups: GroupView[];
}

const NO_CONFIG = { CORRAL_CONFIG: '/nonexistent' };

async function psJson(): Promise<PsJson> {
  const result = await runCli(['ps', '--json', '--all'], { env: NO_CONFIG });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as PsJson;
}

/** Every process in a ps listing, with the group it was listed under. */
function listed(ps: PsJson): Array<{ group: GroupView; p: ProcessView }> {
  return ps.groups.flatMap((group) => group.processes.map((p) => ({ group, p })));
}

interface Expected {
  pid: number;
  label: string;
  name: string;
  argv: string[];
}

const LONG_ARG_COUNT = 1000;
const longArgv = (): string[] => [
  'hold-long',
  ...Array.from({ length: LONG_ARG_COUNT }, (_, i) => `${'x'.repeat(100)}${i}`),
  'y'.repeat(60_000),
];

/**
 * Starts one group (a bash leader that waits) holding a process for every hostile name, one with an
 * empty argv and one with ~160 KB of arguments. Returns the group and what Corral must report.
 */
async function startHostileGroup(): Promise<{ group: SpawnedGroup; expected: Expected[] }> {
  const hold = nativeFixture('hold');
  const noArgv = nativeFixture('no-argv');
  const binDir = tempDirForTest('corral-hostile-');
  const lines: string[] = [];
  HOSTILE_NAMES.forEach((h, i) => {
    // Each name gets a directory of its own, so truncated names cannot collide.
    const dir = join(binDir, String(i));
    mkdirSync(dir);
    const file = Buffer.concat([Buffer.from(`${dir}/`), h.viaPrctl ? Buffer.from('hold') : h.bytes]);
    copyFileSync(hold, file);
    const prctl = h.viaPrctl ? `export HOLD_COMM_HEX=${h.bytes.toString('hex')}; ` : '';
    const args = HOSTILE_ARGS.map((a) => bashBytes(a.bytes)).join(' ');
    lines.push(
      `(export HOLD_READY="$DIR/p${i}"; ${prctl}exec -a ${bashBytes(h.bytes)} ${bashBytes(file)} ${args}) &`,
    );
  });
  lines.push(`(export HOLD_READY="$DIR/empty-argv"; exec '${noArgv}' '${hold}') &`);
  lines.push(
    `(export HOLD_READY="$DIR/long-argv"; printf -v x '%*s' 100 ''; printf -v y '%*s' 60000 '';` +
      ` args=(); for ((i = 0; i < ${LONG_ARG_COUNT}; i++)); do args+=("\${x// /x}$i"); done;` +
      ` exec -a hold-long '${hold}' "\${args[@]}" "\${y// /y}") &`,
  );
  lines.push('wait');
  const group = spawnGroup(lines.join('\n'));

  const expected: Expected[] = [];
  for (const [i, h] of HOSTILE_NAMES.entries()) {
    const pid = Number(await group.ready(`p${i}`));
    expected.push({
      pid,
      label: h.label,
      name: h.comm,
      argv: [h.argv0 ?? h.bytes.toString('utf8'), ...HOSTILE_ARGS.map((a) => a.shown)],
    });
  }
  expected.push({
    pid: Number(await group.ready('empty-argv')),
    label: 'empty argv',
    name: 'hold',
    argv: [''],
  });
  expected.push({
    pid: Number(await group.ready('long-argv')),
    label: '160 KB of arguments',
    name: 'hold',
    argv: longArgv(),
  });
  return { group, expected };
}

describe('hostile process names and command lines (real processes)', () => {
  it('the sampler and corral ps --json --all report the true pid, ppid, pgid, sid, name and argv of each', async () => {
    const { group, expected } = await startHostileGroup();
    expect(expected.length).toBe(HOSTILE_NAMES.length + 2);

    const sampler = new LinuxSampler({ markerKeys: new Set(['CLAUDECODE']) });
    const all = new Map(sampler.sampleAll().map((r) => [r.pid, r]));
    for (const e of expected) {
      const truth = readProcStat(e.pid)!;
      const r = all.get(e.pid);
      expect(r, e.label).toBeDefined();
      expect({ pid: r!.pid, ppid: r!.ppid, pgid: r!.pgid, sid: r!.sid }, e.label).toEqual({
        pid: e.pid,
        ppid: truth.ppid,
        pgid: truth.pgid,
        sid: truth.sid,
      });
      expect(truth).toMatchObject({ ppid: group.pid, pgid: group.pgid, sid: group.pgid });
      expect(r!.name, e.label).toBe(e.name);
      expect(r!.argv, e.label).toEqual(e.argv);
    }

    const ps = await psJson();
    const rows = listed(ps);
    for (const e of expected) {
      const found = rows.filter((row) => row.p.pid === e.pid);
      expect(found, e.label).toHaveLength(1);
      const { group: g, p } = found[0]!;
      expect(g.pgid, e.label).toBe(group.pgid);
      expect({ ppid: p.ppid, pgid: p.pgid, sid: p.sid, name: p.name, argv: p.argv }, e.label).toEqual({
        ppid: group.pid,
        pgid: group.pgid,
        sid: group.pgid,
        name: e.name,
        argv: e.argv,
      });
    }
    const mine = ps.groups.find((g) => g.pgid === group.pgid)!;
    expect(mine.agent).toBeNull();
    expect(mine.leaderAlive).toBe(true);
    expect(mine.processes).toHaveLength(expected.length + 1);
    // No name made Corral invent a group: every listed group is a real PGID above 1, listed once.
    expect(ps.groups.every((g) => g.pgid > 1)).toBe(true);
    expect(new Set(ps.groups.map((g) => g.pgid)).size).toBe(ps.groups.length);
    for (const { p } of rows) {
      const truth = readProcStat(p.pid);
      if (truth) expect(p.pgid).toBe(truth.pgid);
    }
    expect(mine.processes.find((p) => p.argv.length === 1 && p.argv[0] === '')?.command).toBe('[hold]');
  });

  it('corral ps (table) escapes control characters: one line per process, no terminal escapes', async () => {
    const { expected } = await startHostileGroup();
    const result = await runCli(['ps', '--all'], { env: NO_CONFIG });
    expect(result.code).toBe(0);
    // eslint-disable-next-line no-control-regex
    expect(result.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    for (const e of expected) {
      const lines = result.stdout.split('\n').filter((line) => new RegExp(`^\\s+└ ${e.pid}\\s`).test(line));
      expect(lines, e.label).toHaveLength(1);
    }
  });

  it('corral ps (table) neutralises bidirectional overrides that make a name read backwards', async () => {
    const hold = nativeFixture('hold');
    const group = spawnGroup(
      `HOLD_READY="$DIR/pid" exec -a ${bashBytes(Buffer.from('\u202egnp.ecilA'))} '${hold}'`,
    );
    await group.ready('pid');
    const result = await runCli(['ps', '--all'], { env: NO_CONFIG });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('ecilA');
    expect(result.stdout).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
  });

  it('corral kill stops the hostile group by its own PGID only, and a PGID of 1 is refused', async () => {
    const { group, expected } = await startHostileGroup();
    const bystander = spawnGroup('sleep 600 & echo $! > "$DIR/pid"; wait');
    const bystanderPid = Number(await bystander.ready('pid'));
    const ps = await psJson();
    const mine = ps.groups.find((g) => g.pgid === group.pgid)!;

    const kill = await runCli(['kill', mine.id, '--json', '--grace-ms', '2000'], { env: NO_CONFIG });
    expect(kill.code, kill.stderr).toBe(0);
    const result = JSON.parse(kill.stdout) as TeardownResult;
    expect(result.refused).toBeNull();
    expect(result.clean).toBe(true);
    expect(result.signals.length).toBeGreaterThan(0);
    for (const s of result.signals) expect(s.target).toBe(`-${group.pgid}`);
    for (const e of expected) {
      expect(result.processes.find((p) => p.pid === e.pid)?.outcome, e.label).toBe('exited-after-term');
    }
    await waitFor('the hostile group to be empty', () => groupMembers(group.pgid).length === 0);
    expect(isAlive(bystanderPid)).toBe(true);
    expect(readProcStat(bystanderPid)?.pgid).toBe(bystander.pgid);

    const leader = mine.processes.find((p) => p.pid === group.pid)!;
    const pgidOne = await runCli(['kill', `1:${leader.pid}:${leader.startKey}`, '--json'], {
      env: NO_CONFIG,
    });
    expect(pgidOne.code).toBe(2);
    expect(pgidOne.stdout).toBe('');
  });

  it('a plain process that calls itself `claude` is taken for an agent (its group protected); forged markers never reach PID 1', async () => {
    const hold = nativeFixture('hold');
    const dir = tempDirForTest('corral-claude-');
    copyFileSync(hold, join(dir, 'claude'));
    // A normal shell (no agent markers) runs a fake `claude`, and a sibling that no agent started.
    const fake = spawnGroup(
      `(HOLD_READY="$DIR/claude" exec '${dir}/claude') & (HOLD_READY="$DIR/sibling" exec -a sibling '${hold}') & wait`,
      { env: cleanEnv() },
    );
    const claudePid = Number(await fake.ready('claude'));
    const siblingPid = Number(await fake.ready('sibling'));
    const other = spawnGroup(`(HOLD_READY="$DIR/pid" exec -a innocent '${hold}') & wait`);
    const otherPid = Number(await other.ready('pid'));
    // Forged markers that name PID 1 as the agent.
    const forged = spawnGroup(`(HOLD_READY="$DIR/pid" exec -a forged '${hold}') & wait`, {
      env: cleanEnv({ CLAUDECODE: '1', CLAUDE_PID: '1' }),
    });
    await forged.ready('pid');

    const ps = await psJson();
    const group = ps.groups.find((g) => g.pgid === fake.pgid)!;
    expect(group.containsAgent).toBe(true);
    expect(group.agent).toEqual({ name: 'claude-code', pid: claudePid });
    expect(group.processes.map((p) => p.pid)).toEqual(expect.arrayContaining([claudePid, siblingPid]));
    // Nothing outside its group and lineage is attributed to it.
    expect(ps.groups.find((g) => g.pgid === other.pgid)?.agent).toBeNull();
    expect(listed(ps).find((row) => row.p.pid === otherPid)?.group.pgid).toBe(other.pgid);

    const kill = await runCli(['kill', group.id, '--json'], { env: NO_CONFIG });
    expect(kill.code).toBe(3);
    const result = JSON.parse(kill.stdout) as TeardownResult;
    expect(result.refused).toMatch(/agent/);
    expect(result.signals).toEqual([]);
    expect(
      groupMembers(fake.pgid)
        .map((m) => m.pid)
        .sort(),
    ).toEqual([fake.pid, claudePid, siblingPid].sort());
    expect(isAlive(otherPid)).toBe(true);

    // The forged group is attributed as its markers say, but stopping it signals its own PGID only.
    const forgedGroup = ps.groups.find((g) => g.pgid === forged.pgid)!;
    expect(forgedGroup.agent).toEqual({ name: 'claude-code', pid: 1 });
    expect(forgedGroup.containsAgent).toBe(false);
    const forgedKill = await runCli(['kill', forgedGroup.id, '--json'], { env: NO_CONFIG });
    expect(forgedKill.code, forgedKill.stderr).toBe(0);
    const forgedResult = JSON.parse(forgedKill.stdout) as TeardownResult;
    expect(forgedResult.clean).toBe(true);
    expect(forgedResult.signals.map((s) => [s.signal, s.target])).toEqual([
      ['SIGTERM', `-${forged.pgid}`],
      ['SIGCONT', `-${forged.pgid}`],
    ]);
    expect(readProcStat(1)).not.toBeNull();
  });
});
