import { afterEach, describe, expect, it } from 'vitest';
import type { MonitorEvent } from '../../shared/model';
import { CpuMeter } from '../../main/core/analysis/cpu-meter';
import { DEFAULT_SETTINGS } from '../../main/core/config/defaults';
import { Monitor } from '../../main/core/monitor/monitor';
import { snapshotGroups } from '../../main/core/monitor/views/monitor-views';
import { isStall } from '../../main/core/monitor/schedule/stall';
import { LinuxSampler } from '../../main/core/sampling/linux/linux-sampler';
import { matcherFor } from '../../main/core/analysis/signatures';
import { FakeAgent } from '../support/fake-agent';
import { handPolledMatcher, handPolledSettings } from '../support/sweeping-monitor';
import { waitFor } from '../support/wait-for';

describe('isStall', () => {
  const table: Array<[string, number, number, boolean]> = [
    ['a poll on time', 1000, 1000, false],
    ['a late poll (jitter)', 4000, 1000, false],
    ['App Nap: 8 s between 1 s polls', 8000, 1000, true],
    ['a slow poll on time', 10_000, 5000, false],
    ['a slow poll, stalled', 16_000, 5000, true],
  ];
  it.each(table)('%s', (_, sinceLastPollMs, pollIntervalMs, expected) => {
    expect(isStall(sinceLastPollMs, pollIntervalMs)).toBe(expected);
  });
});

let stop: (() => void) | null = null;
const cleanups: Array<() => void> = [];
afterEach(() => {
  stop?.();
  stop = null;
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** Blocks this thread, timers and all, as App Nap or SIGSTOP would stop the monitor's. */
function stallThisThread(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

describe('a rebaseline', () => {
  it('makes the first reading after a sleep unknown instead of an average over the sleep', () => {
    const meter = new CpuMeter();
    expect(meter.reading('1@1', 0, 0)).toBeNull();
    expect(meter.reading('1@1', 1000, 1000)).toBe(100);
    meter.rebaseline();
    expect(meter.reading('1@1', 1500, 3_600_000)).toBeNull();
    expect(meter.reading('1@1', 2500, 3_601_000)).toBe(100);
  });

  it('keeps a stall from completing a hot streak that began before it (Monitor.rebaseline)', async () => {
    const windowSeconds = 1;
    // A low bar, so that a loaded machine still reads the loop hot across the stall.
    const settings = { ...handPolledSettings, runaway: { cpuPercent: 25, windowSeconds } };
    const agent = await FakeAgent.start();
    const call = await agent.toolCall('while :; do :; done');
    // Two monitors watch the same loop through the same stall; only one is rebaselined after it.
    const watch = () => {
      const sampler = new LinuxSampler({ markerKeys: handPolledMatcher.markerKeys });
      const monitor = new Monitor({ sampler, matcher: handPolledMatcher, settings });
      const runaways: MonitorEvent[] = [];
      monitor.onEvent((e) => {
        if (e.type === 'runaway' && e.pgid === call.pid) runaways.push(e);
      });
      cleanups.push(() => sampler.close());
      return { monitor, runaways };
    };
    const rebaselined = watch();
    const control = watch();
    for (const { monitor } of [rebaselined, control])
      await waitFor('the loop read hot', () => {
        monitor.poll();
        return snapshotGroups(monitor).some((g) => g.pgid === call.pid && (g.cpuPercent ?? 0) >= 25);
      });
    expect([...rebaselined.runaways, ...control.runaways]).toEqual([]);

    stallThisThread(windowSeconds * 1000 + 500);
    rebaselined.monitor.rebaseline();
    const rebaselinedAt = Date.now();
    control.monitor.poll();
    rebaselined.monitor.poll();
    // Without the rebaseline, the stall is read as the loop's time spent hot: the streak is complete.
    expect(control.runaways).toHaveLength(1);
    // With it, the streak starts afresh after the stall.
    expect(rebaselined.runaways).toEqual([]);
    const runaway = await waitFor('the runaway, a window after the rebaseline', () => {
      rebaselined.monitor.poll();
      return rebaselined.runaways[0];
    });
    expect(runaway.at - rebaselinedAt).toBeGreaterThanOrEqual(windowSeconds * 1000);
  });
});

describe('a monitor stalled between its polls', () => {
  it('starts its readings afresh, so the stall is not counted as time a tool call spent hot', async () => {
    const windowSeconds = 4;
    const settings = { ...DEFAULT_SETTINGS, pollIntervalMs: 200, runaway: { cpuPercent: 50, windowSeconds } };
    const matcher = matcherFor(settings);
    const sampler = new LinuxSampler({ markerKeys: matcher.markerKeys });
    const monitor = new Monitor({ sampler, matcher, settings });
    const events: MonitorEvent[] = [];
    monitor.onEvent((event) => events.push(event));
    const agent = await FakeAgent.start();
    const call = await agent.toolCall('while :; do :; done');
    let polls = 0;
    monitor.onPoll(() => polls++);
    monitor.start();
    stop = () => {
      monitor.stop();
      sampler.close();
    };
    await waitFor('the loop read hot', () =>
      snapshotGroups(monitor).some((g) => g.pgid === call.pid && (g.cpuPercent ?? 0) >= 50),
    );
    // Polls on time are no stall (five, so that the streak is still shorter than the window).
    const from = polls;
    await waitFor('five polls', () => polls >= from + 5);
    expect(monitor.stallCount).toBe(0);
    expect(events.some((e) => e.type === 'runaway' && e.pgid === call.pid)).toBe(false);

    stallThisThread(5500);
    const stallEnded = Date.now();
    const runaway = await waitFor(
      'the runaway event',
      () => events.find((e) => e.type === 'runaway' && e.pgid === call.pid),
      { timeoutMs: 15_000 },
    );
    expect(monitor.stallCount).toBe(1);
    // Without the rebaseline, the first poll after the stall would have found the streak complete.
    expect(runaway.at - stallEnded).toBeGreaterThanOrEqual(windowSeconds * 1000);
  });
});
