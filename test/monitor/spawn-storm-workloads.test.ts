import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MonitorEvent, Settings } from '../../shared/model';
import { DEFAULT_SPAWN_STORM } from '../../shared/settings-table';
import { FakeAgent } from '../support/fake-agent';
import { startHarness, type Harness } from '../support/service-harness';
import { removeDir } from '../support/spawned-groups';
import { observeSpawns } from '../support/spawn-rates';
import { waitFor } from '../support/wait-for';

// What a storm is not, and what it is beside the fork loop (docs/spawn-storms.md): each workload runs as
// a fake agent's tool call under the default thresholds with a 5 s window, for several windows, so the
// verdict comes from what the workload is, not from how fast this machine runs it.

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
