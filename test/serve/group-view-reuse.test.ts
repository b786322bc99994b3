// With a view of every group open, groups that did not change are not built again (their process lists
// are the very same objects from one snapshot to the next), and a change shows at once: a member that
// exits, a member that appears. A real service over real processes, polled by hand.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../main/core/config/defaults';
import { createCorralService, type RunningService } from '../../main/core/create-service';
import type { GroupView, Snapshot } from '../../shared/model';
import { groupMembers } from '../support/proc';
import { spawnGroup } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';

let dir: string;
let running: RunningService;
let latest: Snapshot | null = null;
let off: () => void;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'corral-view-reuse-'));
  running = createCorralService({
    config: { path: '(test)', settings: { ...DEFAULT_SETTINGS }, errors: [] },
    dataDir: join(dir, 'data'),
    persistSettings: false,
    onError: (step, err) => {
      throw new Error(`monitor step ${step} failed: ${String(err)}`);
    },
  });
  off = running.service.onSnapshot((s) => (latest = s));
});

afterEach(async () => {
  off();
  await running.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Polls until the pushed snapshot shows `pgid` in the state `check` wants. */
async function groupWhen(pgid: number, what: string, check: (g: GroupView) => boolean): Promise<GroupView> {
  return waitFor(what, () => {
    running.monitor.poll();
    const group = latest?.groups.find((g) => g.pgid === pgid);
    return group && check(group) ? group : undefined;
  });
}

describe('views of unchanged groups are reused', () => {
  it('keeps an idle group’s process list between snapshots, and shows an exit and a newcomer', async () => {
    const fixture = spawnGroup(
      'mkfifo "$DIR/go"; sleep 600 & sleep 600 & echo > "$DIR/ready"; read < "$DIR/go"; sleep 600 & echo > "$DIR/forked"; wait',
    );
    await fixture.ready('ready');
    const members = await groupWhen(
      fixture.pgid,
      'the group with its three members',
      (g) => g.processes.length === 3,
    );
    // Its CPU reading settles once its members were read twice; from then on nothing changes.
    await groupWhen(fixture.pgid, 'a CPU reading', (g) => g.cpuPercent !== null);
    // The idle group's members are re-read only by the sweeps, to the same values: its view is kept.
    const views: GroupView[] = [];
    for (let i = 0; i < 10; i++) {
      running.monitor.poll();
      views.push(latest!.groups.find((g) => g.pgid === fixture.pgid)!);
    }
    const reused = views.findIndex((v, i) => i > 0 && v.processes === views[i - 1]!.processes);
    expect(reused).toBeGreaterThan(0);
    // The very view when nothing in the table changed, or a copy when other groups' views were rebuilt.
    expect(views[reused]).toEqual(views[reused - 1]);

    const sleeper = members.processes.find((p) => p.pid !== fixture.pgid)!;
    process.kill(sleeper.pid, 'SIGKILL');
    await waitFor(
      'the sleeper to be gone',
      () => !groupMembers(fixture.pgid).some((m) => m.pid === sleeper.pid),
    );
    const after = await groupWhen(fixture.pgid, 'the exit to show', (g) => g.processes.length === 2);
    expect(after.processes.map((p) => p.pid)).not.toContain(sleeper.pid);

    writeFileSync(join(fixture.dir, 'go'), '\n');
    await fixture.ready('forked');
    const known = new Set(members.processes.map((p) => p.pid));
    const grown = await groupWhen(fixture.pgid, 'the newcomer to show', (g) => g.processes.length === 3);
    expect(grown.processes.filter((p) => !known.has(p.pid))).toHaveLength(1);
  });
});
