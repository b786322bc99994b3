import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MonitorEvent, Settings } from '../../shared/model';
import { DEFAULT_SPAWN_STORM } from '../../shared/settings-table';
import { SUMMARY_EVERY_MS } from '../../main/core/monitor/spawn-storm-check';
import { FakeAgent } from '../support/fake-agent';
import { startHarness, type Harness } from '../support/service-harness';
import { removeDir } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';

let harness: Harness | null = null;
const dirs: string[] = [];
afterEach(async () => {
  await harness?.stop();
  harness = null;
  for (const d of dirs.splice(0)) removeDir(d);
});

const STORM: NonNullable<Settings['spawnStorm']> = { ...DEFAULT_SPAWN_STORM, windowSeconds: 2 };
/** USER_HZ: the unit of /proc/<pid>/stat's times. */
const TICKS_PER_SECOND = 100;

/** The test's own reading of a process's CPU (proc_pid_stat(5) fields 14-17), in seconds. */
function cpuOf(pid: number): { own: number; children: number } {
  const text = readFileSync(`/proc/${pid}/stat`, 'latin1');
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // After the name, field n of proc(5) is at index n - 3.
  return {
    own: (Number(f[11]) + Number(f[12])) / TICKS_PER_SECOND,
    children: (Number(f[13]) + Number(f[14])) / TICKS_PER_SECOND,
  };
}

const fileThere = (path: string) => () => {
  try {
    readFileSync(path);
    return true;
  } catch {
    return false;
  }
};

describe('a fork storm, once flagged (real processes)', { timeout: 180_000 }, () => {
  it('is summarized once an interval instead of announced child by child, and its incident counts what the children burned', async () => {
    harness = startHarness({ spawnStorm: STORM });
    const h = harness;
    const dir = mkdtempSync(join(tmpdir(), 'corral-storm-summary-'));
    dirs.push(dir);
    const agent = await FakeAgent.start();
    // The tool call's shell is the loop and the group's leader: it reaps every /bin/true, so its
    // cutime + cstime is what they burned. Once stopped, it stays (tail) with that total final.
    const call = await agent.toolCall(
      `while [ ! -e ${dir}/stop ]; do /bin/true; done; echo > ${dir}/stopped; exec tail -f /dev/null`,
    );
    const mine = (e: MonitorEvent) => e.pgid === call.pid;
    const storm = await h.next('spawn-storm', mine, 60_000);
    const incident = await waitFor('the storm incident', async () =>
      (await h.running.service.incidents()).find((i) => i.pgid === call.pid && i.end === 'open'),
    );
    // Read after the incident began counting: the incident saw at least all of this.
    const before = cpuOf(call.pid);

    const summaries: MonitorEvent[] = [];
    for (let i = 1; i <= 3; i++)
      summaries.push(
        await h.next('spawn-storm-summary', (e) => mine(e) && !summaries.includes(e), SUMMARY_EVERY_MS * 3),
      );
    // One summary an interval, never more.
    for (let i = 1; i < summaries.length; i++)
      expect(summaries[i]!.at - summaries[i - 1]!.at).toBeGreaterThanOrEqual(SUMMARY_EVERY_MS);
    // From the first summary to the last, the group's events are the summaries alone: no child's start
    // or exit, however many were born (each summary counts them). After the flag, no start at all (an
    // exit may still be one of a child started before it).
    const between = h.events.filter((e) => mine(e) && e.at > summaries[0]!.at && e.at <= summaries[2]!.at);
    expect(between.map((e) => e.type)).toEqual(['spawn-storm-summary', 'spawn-storm-summary']);
    const startedBefore = new Set(
      h.events.filter((e) => mine(e) && e.type === 'process-started' && e.at <= storm.at).map((e) => e.pid),
    );
    const afterFlag = h.events.filter((e) => mine(e) && e.at > storm.at && e.at <= summaries[2]!.at);
    expect(afterFlag.filter((e) => e.type === 'process-started')).toEqual([]);
    for (const e of afterFlag.filter((x) => x.type === 'process-exited'))
      expect(startedBefore).toContain(e.pid);
    let births = 0;
    for (const s of summaries) {
      expect(s.detail?.repeatedCommand).toBe('/bin/true');
      expect(Number(s.detail?.birthsSince)).toBeGreaterThan(0);
      births += Number(s.detail?.birthsSince);
    }
    console.log(
      `storm summaries: ${JSON.stringify(summaries.map((s) => s.detail))}; births summarized ${births}`,
    );

    writeFileSync(join(dir, 'stop'), '');
    await waitFor('the loop stopped', fileThere(join(dir, 'stopped')));
    const after = cpuOf(call.pid);
    const burned = after.own - before.own + (after.children - before.children);
    expect(after.children - before.children).toBeGreaterThan(0);
    // The incident's CPU-seconds cover the group's whole CPU since before was read: the loop's own,
    // and its children's, which almost all lived less than a look and were never read.
    const counted = await waitFor(
      `the incident to count at least the ${burned.toFixed(2)} CPU-seconds the loop and its children burned`,
      async () => {
        const now = (await h.running.service.incidents()).find((i) => i.id === incident.id);
        return now && now.cpuSeconds >= burned - 0.02 ? now : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    console.log(
      `storm CPU: incident ${counted.cpuSeconds} s; the test's reading since the incident opened: ${burned.toFixed(2)} s (children ${(after.children - before.children).toFixed(2)} s)`,
    );
  });
});
