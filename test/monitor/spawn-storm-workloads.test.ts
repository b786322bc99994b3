import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SUMMARY_EVERY_MS } from '../../main/core/monitor/checks/spawn-storm-check';
import type { MonitorEvent, Settings } from '../../shared/model';
import { DEFAULT_SPAWN_STORM } from '../../shared/settings-table';
import { FakeAgent } from '../support/fake-agent';
import { startHarness, type Harness } from '../support/service-harness';
import { removeDir } from '../support/spawned-groups';
import { observeSpawns } from '../support/spawn-rates';
import { waitFor } from '../support/wait-for';

// What a storm is not, and what it is beside the fork loop (docs/spawn-storms.md): each workload runs as
// a fake agent's tool call under the default thresholds with a 5 s window, for several windows, so the
// verdict comes from what the workload is, not from how fast this machine runs it. Then what a storm
// costs once flagged: its events, and its CPU.

let harness: Harness | null = null;
let server: Server | null = null;
const dirs: string[] = [];
afterEach(async () => {
  await harness?.stop();
  harness = null;
  server?.close();
  server = null;
  for (const d of dirs.splice(0)) removeDir(d);
});

const WINDOW_SECONDS = 5;
const STORM: NonNullable<Settings['spawnStorm']> = { ...DEFAULT_SPAWN_STORM, windowSeconds: WINDOW_SECONDS };
/** How long a workload that must not be flagged runs: four windows. */
const RUN_MS = 4 * WINDOW_SECONDS * 1000;

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'corral-workload-'));
  dirs.push(dir);
  return dir;
}

/** The text the tool call wrote to `path` once it finished (a line ending in a newline). */
const written = (path: string) => () => {
  try {
    const text = readFileSync(path, 'utf8');
    return text.endsWith('\n') ? text.trim() : undefined;
  } catch {
    return undefined;
  }
};

const stormsOf = (h: Harness, pgid: number): MonitorEvent[] =>
  h.events.filter((e) => e.type === 'spawn-storm' && e.pgid === pgid);

/** The fork-storm loop notes its count of starts this often. */
const NOTE_EVERY = 20;

/** The loop's own notes ("<epoch seconds> <starts so far>"): how many it had started by a time (ms). */
function startsOf(path: string): (at: number) => number {
  const notes = readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => line.split(' ').map(Number) as [number, number]);
  return (at) => {
    let count = 0;
    for (const [seconds, n] of notes) if (seconds * 1000 <= at) count = n;
    return count;
  };
}

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

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('spawn-storm on real workloads', { timeout: 240_000 }, () => {
  it('does not flag a loop waiting for a server (until curl -sf …; do sleep 0.1; done)', async () => {
    harness = startHarness({ spawnStorm: STORM });
    const h = harness;
    const dir = tempDir();
    const port = await freePort();
    const agent = await FakeAgent.start();
    const call = await agent.toolCall(
      `n=0; until curl -sf http://127.0.0.1:${port}/ >/dev/null; do n=$((n+1)); sleep 0.1; done; echo $n > ${dir}/tries`,
    );
    const observed = observeSpawns(h.running.monitor, call.pid);
    await new Promise((resolve) => setTimeout(resolve, RUN_MS));
    server = createServer((_req, res) => res.end('up'));
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    const tries = Number(
      await waitFor('the wait to end', written(join(dir, 'tries')), { timeoutMs: 30_000 }),
    );
    console.log(`curl wait: ${tries} tries; ${JSON.stringify(observed.stop())}`);
    // It did try for the four windows (ten a second at most).
    expect(tries).toBeGreaterThanOrEqual(RUN_MS / 1000);
    expect(stormsOf(h, call.pid)).toEqual([]);
  });

  it('does not flag four test workers running git status in a loop', async () => {
    harness = startHarness({ spawnStorm: STORM });
    const h = harness;
    const dir = tempDir();
    const repo = join(dir, 'repo');
    const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'ignore' });
    execFileSync('git', ['init', '-q', repo], { stdio: 'ignore' });
    writeFileSync(join(repo, 'a.txt'), 'a\n');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '.');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'a');
    // A test runner's worker: runs `git status` again and again for the run, as a suite's tests do.
    const worker = join(dir, 'worker.cjs');
    writeFileSync(
      worker,
      `const { execFileSync } = require('node:child_process');
const end = Date.now() + ${RUN_MS};
let n = 0;
while (Date.now() < end) { execFileSync('git', ['status'], { cwd: ${JSON.stringify(repo)}, stdio: 'ignore' }); n++; }
console.log(n);
`,
    );
    const agent = await FakeAgent.start();
    const node = process.execPath;
    const call = await agent.toolCall(
      `for i in 1 2 3 4; do ${node} ${worker} > ${dir}/w$i & done; wait; cat ${dir}/w1 ${dir}/w2 ${dir}/w3 ${dir}/w4 | paste -sd+ | bc > ${dir}/runs`,
    );
    const observed = observeSpawns(h.running.monitor, call.pid);
    const runs = Number(
      await waitFor('the workers to finish', written(join(dir, 'runs')), { timeoutMs: 120_000 }),
    );
    console.log(`4 × git status: ${runs} runs; ${JSON.stringify(observed.stop())}`);
    expect(runs).toBeGreaterThan(RUN_MS / 1000);
    expect(stormsOf(h, call.pid)).toEqual([]);
  });

  it('flags a slow crash loop (a command that fails after half a second, restarted at once)', async () => {
    harness = startHarness({ spawnStorm: STORM });
    const h = harness;
    const agent = await FakeAgent.start();
    const call = await agent.toolCall(`while :; do sh -c 'sleep 0.5; exit 1'; done`);
    const storm = await h.next('spawn-storm', (e) => e.pgid === call.pid, 120_000);
    expect(storm.detail?.reason).toBe('repeated-command');
    expect(storm.detail?.repeatedCommand).toBe('sh -c sleep 0.5; exit 1');
    // About 100 a minute, far below what any build starts: it is the loop that counts, not the rate.
    expect(Number(storm.detail?.repeatsPerMinute)).toBeGreaterThanOrEqual(STORM.repeatsPerMinute);
    expect(Number(storm.detail?.birthsPerMinute)).toBeLessThan(1000);
  });

  it('flags a leak that grows to 188 processes (reason member-growth)', async () => {
    harness = startHarness({ spawnStorm: STORM });
    const h = harness;
    const agent = await FakeAgent.start();
    const call = await agent.toolCall('for i in $(seq 1 188); do tail -f /dev/null & sleep 0.1; done; wait');
    const storm = await h.next('spawn-storm', (e) => e.pgid === call.pid, 120_000);
    expect(storm.detail?.reason).toBe('member-growth');
    expect(Number(storm.detail?.members)).toBeGreaterThanOrEqual(STORM.members);
    expect(storm.detail?.repeatedCommand).toBe('tail -f /dev/null');
  });
});

describe('a fork storm, once flagged (real processes)', { timeout: 180_000 }, () => {
  it('is summarized once an interval instead of announced child by child, and its incident counts what the children burned', async () => {
    harness = startHarness({ spawnStorm: { ...DEFAULT_SPAWN_STORM, windowSeconds: 2 } });
    const h = harness;
    const dir = tempDir();
    const agent = await FakeAgent.start();
    // The tool call's shell is the loop and the group's leader: it reaps every /bin/true, so its
    // cutime + cstime is what they burned. Once stopped, it stays (tail) with that total final. Every
    // 20 starts it notes when (bash's $EPOCHREALTIME and echo are built in: no process of their own).
    const call = await agent.toolCall(
      `n=0; while [ ! -e ${dir}/stop ]; do /bin/true; n=$((n+1)); [ $((n % ${NOTE_EVERY})) -eq 0 ] && echo "$EPOCHREALTIME $n" >> ${dir}/starts; done; echo > ${dir}/stopped; exec tail -f /dev/null`,
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
    // Each summary counts the births of its own interval, near what the loop started then (its children
    // are read at the watch's looks, 200 ms apart, and counted between two read ones: a birth counts at
    // the look that read it, so an interval's edges may move by a look's worth).
    const started = startsOf(join(dir, 'starts'));
    const counts = summaries.map((s) => {
      const births = Number(s.detail?.birthsSince);
      const truth = started(s.at) - started(s.at - Number(s.detail?.sinceMs));
      return { births, truth };
    });
    console.log(
      `storm summaries: ${JSON.stringify(summaries.map((s) => s.detail))}; ${JSON.stringify(counts)}`,
    );
    for (const [i, s] of summaries.entries()) {
      expect(s.detail?.repeatedCommand).toBe('/bin/true');
      const { births, truth } = counts[i]!;
      // A loop, not a trickle, even on a loaded machine (about 9,000 a minute here at a load of 15): enough
      // starts that the loop's notes, every NOTE_EVERY, measure them to within a few percent.
      expect(truth).toBeGreaterThanOrEqual(10 * NOTE_EVERY);
      expect(births).toBeGreaterThan(truth * 0.5);
      expect(births).toBeLessThan(truth * 1.5);
    }

    writeFileSync(join(dir, 'stop'), '');
    await waitFor('the loop stopped', written(join(dir, 'stopped')));
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
