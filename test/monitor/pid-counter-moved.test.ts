import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { MonitorEvent } from '../../shared/model';
import { DEFAULT_SETTINGS } from '../../main/core/config/defaults';
import { matcherFor } from '../../main/core/analysis/signatures';
import { Monitor } from '../../main/core/monitor/monitor';
import { LinuxSampler } from '../../main/core/sampling/linux/linux-sampler';
import { FakeAgent } from '../support/fake-agent';
import { cannotForcePids } from '../support/forced-pid';
import { tempDirForTest } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';
import { describeUnless } from '../support/skip';

// The monitor finds new processes through the kernel's pid counter (/proc/loadavg). Writing
// /proc/sys/kernel/ns_last_pid (kernel/pid_namespace.c, pid_ns_ctl_handler: idr_set_cursor) moves that
// counter anywhere, as CRIU does to restore a process under its old pid. These tests move it inside the
// test run's own PID namespace, where nothing else runs meanwhile (the suite runs one file at a time),
// and drive the monitor's looks by hand, so that no look falls where it would hide what is tested.
const NS_LAST_PID = '/proc/sys/kernel/ns_last_pid';
const pidMax = Number(readFileSync('/proc/sys/kernel/pid_max', 'utf8'));
const counter = (): number => Number(readFileSync(NS_LAST_PID, 'utf8'));
const setCounter = (pid: number): void => writeFileSync(NS_LAST_PID, String(pid));

let stop: (() => void) | null = null;
let highest = 0;
afterEach(() => {
  stop?.();
  stop = null;
  // The counter goes on from the highest it stood at, so later tests get fresh pids.
  if (highest > 0 && counter() < highest) setCounter(highest);
  highest = 0;
});

async function watchedAgent(): Promise<{ agent: FakeAgent; monitor: Monitor; events: MonitorEvent[] }> {
  const agent = await FakeAgent.start();
  const matcher = matcherFor(DEFAULT_SETTINGS);
  const sampler = new LinuxSampler({ markerKeys: matcher.markerKeys });
  const monitor = new Monitor({ sampler, matcher, settings: DEFAULT_SETTINGS });
  const events: MonitorEvent[] = [];
  monitor.onEvent((e) => events.push(e));
  stop = () => {
    monitor.stop();
    sampler.close();
  };
  // The first poll sweeps the whole table and sets the cursor at the counter.
  monitor.poll();
  highest = counter();
  return { agent, monitor, events };
}

const orphanIn = (events: MonitorEvent[], pgid: number): MonitorEvent | undefined =>
  events.find((e) => e.type === 'orphaned' && e.pgid === pgid);

describeUnless(cannotForcePids)('the pid counter moved further than a look can follow', () => {
  it('jumped ahead by more pids than are probed one by one: the next look lists the table', async () => {
    const { agent, monitor, events } = await watchedAgent();
    const ahead = counter() + 5_000;
    if (ahead >= pidMax - 100) throw new Error(`pid_max ${pidMax} leaves no room to jump 5,000 pids`);
    setCounter(ahead);
    const call = await agent.toolCall('sleep 600 & echo done');
    await call.exited();
    expect(call.pid).toBeGreaterThan(ahead);

    monitor.watch();
    expect(orphanIn(events, call.pid)?.agent?.name).toBe('claude-code');
  });

  it('set back below the cursor: the next look lists the table', async () => {
    const { agent, monitor, events } = await watchedAgent();
    setCounter(Math.max(300, counter() - 2_000));
    const call = await agent.toolCall('sleep 600 & echo done');
    await call.exited();
    expect(call.pid).toBeLessThan(highest);

    monitor.watch();
    expect(orphanIn(events, call.pid)?.agent?.name).toBe('claude-code');
  });

  it('set back and forward again between two looks: a process it hid is found by its first child', async () => {
    const { agent, monitor, events } = await watchedAgent();
    const dir = tempDirForTest('corral-counter-');
    const fifo = join(dir, 'go');
    execFileSync('mkfifo', [fifo]);
    setCounter(Math.max(300, counter() - 2_000));
    // The leftover waits, then forks a child: the child is born once the counter stands past the cursor.
    const call = await agent.toolCall(
      `sh -c 'read _ < ${fifo}; sleep 600' > /dev/null 2>&1 & echo $! > ${join(dir, 'pid')}`,
    );
    await call.exited();
    const leftover = Number(readFileSync(join(dir, 'pid'), 'utf8'));
    expect(leftover).toBeLessThan(highest);
    setCounter(highest);

    // No look can tell that the counter went back: the leftover is not seen yet.
    monitor.watch();
    monitor.poll();
    expect(events.filter((e) => e.pid === leftover)).toEqual([]);

    writeFileSync(fifo, 'go\n');
    const orphaned = await waitFor('the leftover found through its child', () => {
      monitor.watch();
      return events.find((e) => e.type === 'orphaned' && e.pid === leftover);
    });
    expect(orphaned.agent?.name).toBe('claude-code');
    expect(orphaned.pgid).toBe(call.pid);
  });
});
