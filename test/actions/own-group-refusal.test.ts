import { closeSync, constants, openSync, writeSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { GroupView, TeardownResult } from '../../shared/model';
import { groupMembers, isAlive } from '../support/proc';
import { runCli } from '../support/run-cli';
import { cleanEnv, spawnGroup, trackGroup } from '../support/spawned-groups';

const CLI = fileURLToPath(new URL('../../main/cli/corral.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url));
const NO_CONFIG = { CORRAL_CONFIG: '/nonexistent' };

async function groupOf(pgid: number): Promise<GroupView> {
  const ps = await runCli(['ps', '--json', '--all'], { env: NO_CONFIG });
  expect(ps.code, ps.stderr).toBe(0);
  const group = (JSON.parse(ps.stdout) as { groups: GroupView[] }).groups.find((g) => g.pgid === pgid);
  if (!group) throw new Error(`corral ps does not list PGID ${pgid}`);
  return group;
}

function send(fifo: string, line: string): void {
  const fd = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
  writeSync(fd, `${line}\n`);
  closeSync(fd);
}

/**
 * A session whose leader runs `corral kill` on a group id it reads from a fifo: Corral's own group and
 * session are real here, read by Corral from the process table, never passed in. `$JOB` (job control
 * on) puts a sleep in a group of its own in the same session.
 */
function corralInside(): ReturnType<typeof spawnGroup> {
  return spawnGroup(
    `set -m; sleep 600 & echo $! > "$DIR/job"; set +m; sleep 600 & echo $! > "$DIR/sibling"; ` +
      `mkfifo "$DIR/id"; echo ok > "$DIR/ready"; read -r id < "$DIR/id"; ` +
      `'${process.execPath}' '${TSX}' '${CLI}' kill "$id" --json --grace-ms 500 > "$DIR/out"; echo $? > "$DIR/code"; ` +
      `echo done > "$DIR/done"; wait`,
    { env: cleanEnv(NO_CONFIG) },
  );
}

describe("corral kill refuses its own group and session (real processes, Corral's ids read from /proc)", () => {
  it('refuses the group it runs in, signals nothing, and every member lives', async () => {
    const g = corralInside();
    await g.ready('ready');
    const sibling = Number(await g.ready('sibling'));
    trackGroup(Number(await g.ready('job')));
    const group = await groupOf(g.pgid);
    send(`${g.dir}/id`, group.id);
    await g.ready('done', 60_000);
    const result = JSON.parse(await g.ready('out')) as TeardownResult;
    expect(Number(await g.ready('code'))).toBe(3);
    expect(result.refused).toBe(`PGID ${g.pgid} is Corral's own process group`);
    expect(result.signals).toEqual([]);
    expect(isAlive(g.pid) && isAlive(sibling)).toBe(true);
  });

  it('refuses another group of the session it runs in, signals nothing, and the group lives', async () => {
    const g = corralInside();
    await g.ready('ready');
    const job = Number(await g.ready('job'));
    trackGroup(job);
    const group = await groupOf(job);
    expect(group.sid).toBe(g.pid);
    send(`${g.dir}/id`, group.id);
    await g.ready('done', 60_000);
    const result = JSON.parse(await g.ready('out')) as TeardownResult;
    expect(Number(await g.ready('code'))).toBe(3);
    expect(result.refused).toBe(`PGID ${job} is in Corral's own session`);
    expect(result.signals).toEqual([]);
    expect(groupMembers(job).map((m) => m.pid)).toEqual([job]);
  });
});
