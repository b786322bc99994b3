import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GroupView, TeardownResult } from '../../shared/model';
import { fanOutResult, nativeFixture } from '../faults/native/native-fixtures';
import { FakeAgent } from '../support/fake-agent';
import { allPids, readProcStat, type ProcStat } from '../support/proc';
import { runCli } from '../support/run-cli';
import { spawnGroup, tempDirForTest, trackGroup } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';

const BUILT = [process.execPath, fileURLToPath(new URL('../../out/main/corral.js', import.meta.url))];

const BIG_GROUP = 5000;
const SMALL_GROUPS = 2000;
const NO_CONFIG = { CORRAL_CONFIG: '/nonexistent' };

/** Independent /proc scan: every process with its ids. */
function scan(): Map<number, ProcStat> {
  const out = new Map<number, ProcStat>();
  for (const pid of allPids()) {
    const s = readProcStat(pid);
    if (s) out.set(pid, s);
  }
  return out;
}

function readFanOut(path: string): { pids: number[]; error: string | null } | undefined {
  try {
    const text = readFileSync(path, 'utf8');
    return text.endsWith('\n') ? fanOutResult(text) : undefined;
  } catch {
    return undefined;
  }
}

describe('load: thousands of processes and groups', () => {
  it(`${BIG_GROUP} processes in one tool-call group beside ${SMALL_GROUPS} groups: ps is exact, kill empties the big group`, async () => {
    const fanOut = nativeFixture('fan-out');
    const agent = await FakeAgent.start();
    const dir = tempDirForTest('corral-load-');
    const spawnStarted = Date.now();
    const call = await agent.toolCall(`exec '${fanOut}' ${BIG_GROUP} '${dir}/big'`);
    const small = spawnGroup(`exec '${fanOut}' ${SMALL_GROUPS} "$DIR/ready" own-groups`);
    const groups = await waitFor('the small groups', () => readFanOut(join(small.dir, 'ready')), {
      timeoutMs: 30_000,
    });
    // They left the spawned group: each is removed by its own PGID after the test.
    for (const pgid of groups.pids) trackGroup(pgid);
    const big = await waitFor('the big group', () => readFanOut(join(dir, 'big')), { timeoutMs: 30_000 });
    expect(groups.error).toBeNull();
    expect(big.error).toBeNull();
    expect(groups.pids).toHaveLength(SMALL_GROUPS);
    expect(big.pids).toHaveLength(BIG_GROUP);
    const spawnMs = Date.now() - spawnStarted;

    const before = scan();
    const psStarted = Date.now();
    const ps = await runCli(['ps', '--json', '--all'], { env: NO_CONFIG, timeoutMs: 60_000, command: BUILT });
    const psMs = Date.now() - psStarted;
    const after = scan();
    expect(ps.code, ps.stderr).toBe(0);
    const listed = (JSON.parse(ps.stdout) as { groups: GroupView[] }).groups;

    // Every process that lived through the listing is in it once, with the ids /proc gives it.
    const stable = [...before.values()].filter((s) => after.has(s.pid) && s.pgid > 0);
    const rows = listed.flatMap((g) => g.processes.map((p) => ({ g, p })));
    const byPid = new Map(rows.map((row) => [row.p.pid, row]));
    expect(byPid.size).toBe(rows.length);
    for (const s of stable) {
      const row = byPid.get(s.pid);
      expect(row, `pid ${s.pid}`).toBeDefined();
      expect({ ppid: row!.p.ppid, pgid: row!.p.pgid, sid: row!.p.sid }).toEqual({
        ppid: s.ppid,
        pgid: s.pgid,
        sid: s.sid,
      });
      expect(row!.g.pgid).toBe(s.pgid);
    }
    const transient = rows.filter((row) => !(before.has(row.p.pid) && after.has(row.p.pid)));
    // The only row that lived through less than the listing is corral's own (the built CLI, run as it
    // ships: through tsx, its esbuild service would show up too): started by this test, so in its
    // process group, with the CLI on its command line.
    const ownPgid = readProcStat(process.pid)!.pgid;
    expect(transient.length).toBeGreaterThan(0);
    for (const { g, p } of transient) {
      expect(g.pgid, p.command).toBe(ownPgid);
      expect(p.command).toMatch(/corral/);
    }
    expect(new Set(listed.map((g) => g.pgid))).toEqual(new Set(stable.map((s) => s.pgid)));

    const bigGroup = listed.find((g) => g.pgid === call.pid)!;
    expect(bigGroup.processes).toHaveLength(BIG_GROUP + 1);
    expect(bigGroup.agent).toEqual({ name: 'claude-code', pid: agent.pid });
    expect(bigGroup.containsAgent).toBe(false);
    for (const pgid of groups.pids) {
      const g = listed.find((x) => x.pgid === pgid);
      expect(g?.processes.map((p) => p.pid)).toEqual([pgid]);
      expect(g?.agent).toBeNull();
    }

    const killStarted = Date.now();
    const kill = await runCli(['kill', bigGroup.id, '--json', '--grace-ms', '5000'], {
      env: NO_CONFIG,
      timeoutMs: 60_000,
    });
    const killMs = Date.now() - killStarted;
    expect(kill.code, kill.stderr).toBe(0);
    const result = JSON.parse(kill.stdout) as TeardownResult;
    expect(result.refused).toBeNull();
    expect(result.clean).toBe(true);
    expect(result.signals.map((s) => `${s.signal} ${s.target} ${s.result}`)).toEqual([
      `SIGTERM -${call.pid} sent`,
      `SIGCONT -${call.pid} sent`,
    ]);
    expect(result.processes.filter((p) => p.outcome === 'exited-after-term')).toHaveLength(BIG_GROUP + 1);
    await waitFor(
      'no process left in the big group',
      () => ![...scan().values()].some((s) => s.pgid === call.pid),
    );
    // The neighbours were not touched.
    const now = scan();
    expect(groups.pids.filter((pid) => now.get(pid)?.state === 'S')).toHaveLength(SMALL_GROUPS);

    for (const pgid of groups.pids) process.kill(-pgid, 'SIGKILL');
    process.kill(-small.pgid, 'SIGKILL');
    await waitFor('the small groups gone', () => {
      const left = scan();
      return groups.pids.every((pid) => !left.has(pid)) && !left.has(small.pid);
    });
    console.info(
      `load: ${BIG_GROUP + 1} processes in one tool-call group + ${SMALL_GROUPS} one-process groups ` +
        `(${now.size} in the table after the kill) started in ${spawnMs} ms; ` +
        `corral ps --json --all listed ${rows.length} processes in ${listed.length} groups in ${psMs} ms; ` +
        `corral kill stopped ${BIG_GROUP + 1} processes in ${killMs} ms (teardown ${result.finishedAt - result.startedAt} ms)`,
    );
  }, 120_000);
});
