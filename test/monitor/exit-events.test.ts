import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { MonitorEvent } from '../../shared/model';
import { DEFAULT_SETTINGS } from '../../main/core/config/defaults';
import { Monitor } from '../../main/core/monitor/monitor';
import type { ProcessSampler } from '../../main/core/sampling/process-sampler';
import { keptFds } from '../../main/core/sampling/linux/kept-fds';
import { LinuxSampler } from '../../main/core/sampling/linux/linux-sampler';
import { matcherFor } from '../../main/core/analysis/signatures';
import { FakeAgent } from '../support/fake-agent';
import { readProcStat } from '../support/proc';
import { waitFor } from '../support/wait-for';

let monitor: Monitor | null = null;
let real: LinuxSampler | null = null;
afterEach(async () => {
  monitor?.stop();
  real?.close();
  await real?.exitWatchState.stopped;
  monitor = null;
  real = null;
});

/** A setting no timer reaches during a test: ten minutes. */
const NEVER = 600_000;
const settings = { ...DEFAULT_SETTINGS, pollIntervalMs: NEVER };
const matcher = matcherFor(settings);

const childrenOf = (pid: number): number[] =>
  readFileSync(`/proc/${pid}/task/${pid}/children`, 'latin1').trim().split(' ').filter(Boolean).map(Number);

/** How many eventfds this process holds open now (the exit watch's wake-up is one). */
const openEventfds = (): number =>
  readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === 'anon_inode:[eventfd]';
    } catch {
      return false;
    }
  }).length;

/** A tool call whose wrapper waits on its background sleep, so both are in the table when the monitor starts. */
async function runningToolCall(agent: FakeAgent): Promise<{ wrapper: number; child: number }> {
  const call = await agent.toolCall('sleep 600 & wait');
  const child = await waitFor("the wrapper's sleep", () => childrenOf(call.pid)[0]);
  return { wrapper: call.pid, child };
}

/** The real sampler and a monitor whose timers never fire in a test: only exits can wake it. */
function monitorWithNoTimer(): { real: LinuxSampler; monitor: Monitor } {
  const sampler = new LinuxSampler({ markerKeys: matcher.markerKeys });
  const m = new Monitor({ sampler, matcher, settings, watchIntervalMs: NEVER, idleWatchIntervalMs: NEVER });
  return { real: sampler, monitor: m };
}

/** Counts the monitor's polls: only the first, at start, runs in these tests (the next is ten minutes away). */
function countPolls(m: Monitor): () => number {
  let polls = 0;
  const poll = m.poll.bind(m);
  m.poll = () => {
    polls++;
    poll();
  };
  return () => polls;
}

describe('exits wake the monitor (a blocking poll on pidfds in a worker thread)', () => {
  it('flags the orphan when its wrapper exits, with no poll or watch due for ten minutes', async () => {
    const agent = await FakeAgent.start();
    const { wrapper, child } = await runningToolCall(agent);
    ({ real, monitor } = monitorWithNoTimer());
    const polls = countPolls(monitor);
    const events: MonitorEvent[] = [];
    monitor.onEvent((e) => events.push(e));
    monitor.start();
    expect(polls()).toBe(1);
    // The wrapper and the agent are followed, and a worker thread waits on their pidfds.
    expect(real.exitWatchState.waitingInThread).toBe(true);
    expect(events.some((e) => e.type === 'orphaned')).toBe(false);

    process.kill(wrapper, 'SIGKILL');
    const orphaned = await waitFor(
      'the orphaned event',
      () => events.find((e) => e.type === 'orphaned' && e.pid === child),
      { timeoutMs: 30_000 },
    );
    expect(orphaned.agent?.name).toBe('claude-code');
    expect(orphaned.pgid).toBe(wrapper);
    expect(readProcStat(child)?.ppid).toBe(1);
    // No tick came: the first poll is still the only one.
    expect(polls()).toBe(1);
    expect(events.some((e) => e.type === 'process-exited' && e.pid === wrapper)).toBe(true);
  });

  it('stops the worker thread and closes its eventfd when the monitor stops; the sampler closes the pidfds', async () => {
    const agent = await FakeAgent.start();
    await runningToolCall(agent);
    const eventfdsBefore = openEventfds();
    const keptBefore = keptFds.total;
    ({ real, monitor } = monitorWithNoTimer());
    monitor.start();
    expect(real.exitWatchState.waitingInThread).toBe(true);
    expect(openEventfds()).toBe(eventfdsBefore + 1);

    monitor.stop();
    await real.exitWatchState.stopped;
    expect(real.exitWatchState.waitingInThread).toBe(false);
    expect(openEventfds()).toBe(eventfdsBefore);
    real.close();
    // Every descriptor the sampler kept (stat files, pidfds, the eventfd) is released.
    expect(keptFds.total).toBe(keptBefore);
  });

  it('without the worker thread, the timer-driven watch still finds the exit through pidfds', async () => {
    real = new LinuxSampler({ markerKeys: matcher.markerKeys });
    const sampler = real;
    let exitPolls = 0;
    // The sampler as a platform with pidfds but no way to wait for them in a thread.
    const noThread: ProcessSampler = {
      platform: sampler.platform,
      sampleAll: () => sampler.sampleAll(),
      sampleSome: (pids) => sampler.sampleSome(pids),
      listPids: () => sampler.listPids(),
      newPidsSince: (cursor) => sampler.newPidsSince(cursor),
      childrenOf: (pid) => sampler.childrenOf(pid),
      watchExits: (targets) => sampler.watchExits(targets),
      exitedWatched: () => {
        exitPolls++;
        return sampler.exitedWatched();
      },
    };
    const agent = await FakeAgent.start();
    const { wrapper, child } = await runningToolCall(agent);
    monitor = new Monitor({ sampler: noThread, matcher, settings, watchIntervalMs: 50 });
    const events: MonitorEvent[] = [];
    monitor.onEvent((e) => events.push(e));
    monitor.start();
    expect(real.exitWatchState.waitingInThread).toBe(false);
    process.kill(wrapper, 'SIGKILL');
    await waitFor('the orphaned event', () => events.find((e) => e.type === 'orphaned' && e.pid === child), {
      timeoutMs: 30_000,
    });
    expect(exitPolls).toBeGreaterThan(0);
  });
});
