// What is not a runaway, measured on demand beside busy neighbours: a build whose compilers each live a
// moment and whose make waits for them, and a test runner that sleeps between its tests. Each runs as a
// fake agent's tool call for longer than two runaway windows while the watch and `ps` look at it. Each
// goes on until the test says stop (a file), so that `ps`, however slow to start, finds it running.
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { GroupView, Settings } from '../../shared/model';
import { makeProject } from '../support/build-fixtures';
import { FakeAgent } from '../support/fake-agent';
import { runCli } from '../support/run-cli';
import { startHarness, type Harness } from '../support/service-harness';
import { removeDir, tempDirForTest } from '../support/spawned-groups';
import { startBusyNeighbours } from '../support/watch-json';
import { waitFor } from '../support/wait-for';

const RUNAWAY: Settings['runaway'] = { cpuPercent: 80, windowSeconds: 3 };
const NEIGHBOURS_PER_CORE = 1;

let harness: Harness | null = null;

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

afterEach(async () => {
  await harness?.stop();
  harness = null;
});

/**
 * Runs the command `commandUntil(stopFile)` makes as a tool call under the watch, with `ps --json` asked
 * while it runs, and checks that neither ever called anything of it runaway. The command must go on
 * until `stopFile` exists (created once `ps` has looked) and so outlast two windows.
 */
async function notRunaway(commandUntil: (stopFile: string) => string): Promise<void> {
  await startBusyNeighbours(NEIGHBOURS_PER_CORE * availableParallelism());
  harness = startHarness({ runaway: RUNAWAY });
  const dir = tempDirForTest('corral-config-');
  const configPath = join(dir, 'config.json');
  writeFileSync(configPath, JSON.stringify({ runaway: RUNAWAY }));
  const stopFile = join(dir, 'stop');
  const agent = await FakeAgent.start();
  const startedAt = Date.now();
  const call = await agent.toolCall(commandUntil(stopFile));
  // One look once its processes are older than the window (a one-shot needs that much life to judge).
  await new Promise((resolve) => setTimeout(resolve, (RUNAWAY.windowSeconds + 1) * 1000));
  const ps = await runCli(['ps', '--json'], { env: { CORRAL_CONFIG: configPath } });
  expect(ps.code, ps.stderr).toBe(0);
  const group = (JSON.parse(ps.stdout) as { groups: GroupView[] }).groups.find((g) => g.pgid === call.pid);
  expect(group, 'the tool call still running when ps looked').toBeDefined();
  const psFlags = [...group!.flags, ...group!.processes.flatMap((p) => p.flags)];
  // Two whole windows of it, then stop it: it must still be running by then.
  const twoWindowsEnd = startedAt + 2 * RUNAWAY.windowSeconds * 1000 + 500;
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, twoWindowsEnd - Date.now())));
  expect(groupAlive(call.pid), 'the tool call still running after two windows').toBe(true);
  writeFileSync(stopFile, '');
  const exit = await call.exited();
  expect(exit.code).toBe(0);
  await waitFor('the watch to see the group end', () =>
    harness!.events.some((e) => e.type === 'group-ended' && e.pgid === call.pid),
  );
  expect(harness.events.filter((e) => e.type === 'runaway' && e.sid === call.pid)).toEqual([]);
  expect(psFlags).not.toContain('runaway');
}

describe('runaway is demand, and demand is not a build or a sleeping test runner', () => {
  it('does not flag make -j2 of real C files beside busy neighbours', { timeout: 240_000 }, async () => {
    const project = makeProject(150);
    try {
      // Builds it again from scratch (-B) until told to stop.
      await notRunaway((stop) => `until [ -e ${stop} ]; do make -B -j2 -s -C ${project} || exit 1; done`);
    } finally {
      removeDir(project);
    }
  });

  it('does not flag a test runner that sleeps between its tests', { timeout: 120_000 }, async () => {
    // "Tests" of about 20 ms of work each, then a 250 ms wait, as a runner awaiting timers and I/O.
    await notRunaway((stop) => {
      const runner = `const t=()=>{let s=0;const end=Date.now()+20;while(Date.now()<end)s++;if(!require("fs").existsSync(${JSON.stringify(stop)}))setTimeout(t,250)};t()`;
      return `${process.execPath} -e '${runner}'`;
    });
  });
});
