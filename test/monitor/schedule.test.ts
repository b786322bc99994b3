import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS } from '../../main/core/config/defaults';
import { Monitor } from '../../main/core/monitor/monitor';
import { LinuxSampler } from '../../main/core/sampling/linux/linux-sampler';
import { matcherFor } from '../../main/core/analysis/signatures';
import { FakeAgent } from '../support/fake-agent';
import { QUIET_COUNTER_WATCH_MS } from '../../main/core/monitor/schedule/watch-pace';

afterEach(() => {
  vi.useRealTimers();
});

/**
 * A monitor over the real process table with a live (idle) agent in it, so its watch runs, driven by
 * fake timers: the schedule is asserted exactly, without waiting on the clock.
 */
function monitorWithLooks(settings = DEFAULT_SETTINGS, watchIntervalMs?: number, fullSweepEvery?: number) {
  const sampler = new LinuxSampler({ markerKeys: matcherFor(settings).markerKeys });
  const monitor = new Monitor({
    sampler,
    matcher: matcherFor(settings),
    settings,
    watchIntervalMs,
    fullSweepEvery,
  });
  const looks: { kind: 'poll' | 'watch'; at: number }[] = [];
  const sweepsAt: number[] = [];
  const poll = monitor.poll.bind(monitor);
  monitor.poll = () => {
    const at = performance.now();
    looks.push({ kind: 'poll', at });
    const sweeps = monitor.sweepCount;
    poll();
    if (monitor.sweepCount > sweeps) sweepsAt.push(at);
  };
  const watch = monitor.watch.bind(monitor);
  monitor.watch = () => {
    looks.push({ kind: 'watch', at: performance.now() });
    watch();
  };
  return { sampler, monitor, looks, sweepsAt };
}

/** The monitor took the agent for one: from now on its watch runs. */
const followsAgent = (monitor: Monitor, pid: number): boolean =>
  [...monitor.trackedProcesses()].some((p) => p.record.pid === pid && p.attribution?.isAgent === true);

const gaps = (times: number[]): number[] => times.slice(1).map((t, i) => t - times[i]!);

describe('the monitor schedule', () => {
  it('keeps one timer for its poll and its watch while an agent runs, and leaves none behind when stopped', async () => {
    const agent = await FakeAgent.start();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const { sampler, monitor, looks } = monitorWithLooks({ ...DEFAULT_SETTINGS, pollIntervalMs: 50 }, 10);
    monitor.start();
    expect(followsAgent(monitor, agent.pid)).toBe(true);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(500);
    // Both kinds of look ran, from the one timer.
    expect(looks.filter((l) => l.kind === 'poll').length).toBeGreaterThanOrEqual(5);
    expect(looks.filter((l) => l.kind === 'watch').length).toBeGreaterThanOrEqual(20);
    expect(vi.getTimerCount()).toBe(1);
    monitor.stop();
    expect(vi.getTimerCount()).toBe(0);
    const after = looks.length;
    vi.advanceTimersByTime(500);
    expect(looks.length).toBe(after);
    sampler.close();
  });

  // Exits come from the sampler's worker thread here (pidfds), so the busy watch only reads the pid counter
  // and runs every 15 ms; without that thread it also polls for exits and runs every 100 ms.
  it('watches at the production pace: every 15 ms for 5 s after an agent process appeared, then every 200 ms', async () => {
    const agent = await FakeAgent.start();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    // No watchIntervalMs: the defaults the app runs with. Polls keep the default 1 s interval.
    const { sampler, monitor, looks } = monitorWithLooks();
    const t0 = performance.now();
    monitor.start();
    expect(followsAgent(monitor, agent.pid)).toBe(true);
    vi.advanceTimersByTime(8000);
    monitor.stop();
    sampler.close();

    const at = (kind: 'poll' | 'watch', from: number, to: number) =>
      looks.filter((l) => l.kind === kind && l.at - t0 >= from && l.at - t0 <= to).map((l) => l.at - t0);
    // Every look, poll or watch: the poll takes the watch's turn when both are due.
    const all = (from: number, to: number) =>
      looks.filter((l) => l.at - t0 >= from && l.at - t0 <= to).map((l) => l.at - t0);
    expect(at('poll', 0, 8000)).toEqual([0, 1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000]);
    // 15 ms apart from each poll on; the poll is due 10 ms after the 66th watch since the last one.
    expect(new Set(gaps(all(0, 5000)))).toEqual(new Set([15, 10]));
    expect(new Set(gaps(all(5000, 8000)))).toEqual(new Set([200]));
    expect(at('watch', 0, 1000)).toHaveLength(66);
  });

  // The pace once quiet depends on whether the agent marks its tool calls: a tool call's shell is alive
  // throughout here, so the monitor has seen one of its processes and whether it carried the markers.
  it.each([
    {
      marks: true,
      quietLooks: 'two looks at the pid counter between polls 2000 ms apart',
      quietGaps: [QUIET_COUNTER_WATCH_MS, 2000 - 2 * QUIET_COUNTER_WATCH_MS],
    },
    { marks: false, quietLooks: 'the watch every 200 ms', quietGaps: [200] },
  ])(
    'once an agent is quiet, looks with $quietLooks when its tool calls carry markers: $marks',
    async ({ marks, quietGaps }) => {
      const agent = await FakeAgent.start(marks ? {} : { markers: {} });
      const call = await agent.toolCall('sleep 600; :');
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
      const { sampler, monitor, looks } = monitorWithLooks();
      const t0 = performance.now();
      monitor.start();
      const shell = [...monitor.trackedProcesses()].find((p) => p.record.pid === call.pid);
      expect(shell?.attribution).toMatchObject({ agentPid: agent.pid, isAgent: false });
      expect(matcherFor(DEFAULT_SETTINGS).markersOf(shell!.record.markers)?.agent ?? null).toBe(
        marks ? 'claude-code' : null,
      );
      vi.advanceTimersByTime(8000);
      monitor.stop();
      sampler.close();
      const all = looks.filter((l) => l.at - t0 >= 5000).map((l) => l.at - t0);
      expect(new Set(gaps(all))).toEqual(new Set(quietGaps));
      if (marks) {
        const polls = looks.filter((l) => l.kind === 'poll' && l.at - t0 >= 5000).map((l) => l.at - t0);
        expect(new Set(gaps(polls))).toEqual(new Set([2000]));
      }
    },
  );

  describe('while quiet (no agent process born or gone for 5 s, every agent marking its tool calls)', () => {
    const quietMonitor = async (settings = DEFAULT_SETTINGS, fullSweepEvery?: number) => {
      const agent = await FakeAgent.start();
      await agent.toolCall('sleep 600; :');
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'performance'] });
      const looks = monitorWithLooks(settings, undefined, fullSweepEvery);
      const t0 = performance.now();
      const pollsAt = () => looks.looks.filter((l) => l.kind === 'poll').map((l) => l.at - t0);
      return { ...looks, t0, pollsAt };
    };

    it('polls at quietPollIntervalMs, and at pollIntervalMs again from the moment a view opens', async () => {
      const { sampler, monitor, pollsAt } = await quietMonitor();
      monitor.start();
      expect(monitor.pollPaceMs).toBe(1000);
      vi.advanceTimersByTime(9000);
      expect(pollsAt()).toEqual([0, 1000, 2000, 3000, 4000, 5000, 7000, 9000]);
      expect(monitor.pollPaceMs).toBe(2000);
      // Half-way to the next poll (due at 11000) a window opens: the poll comes 1 s after the last one.
      vi.advanceTimersByTime(500);
      monitor.setWholeTableWanted(true);
      expect(monitor.pollPaceMs).toBe(1000);
      vi.advanceTimersByTime(2500);
      expect(pollsAt().slice(8)).toEqual([10_000, 11_000, 12_000]);
      // Closed again: the poll after that stretches.
      monitor.setWholeTableWanted(false);
      vi.advanceTimersByTime(5000);
      expect(pollsAt().slice(11)).toEqual([13_000, 15_000, 17_000]);
      monitor.stop();
      sampler.close();
    });

    it('never stretches past pollIntervalMs, and a quietPollIntervalMs below it changes nothing', async () => {
      const settings = { ...DEFAULT_SETTINGS, pollIntervalMs: 3000, quietPollIntervalMs: 2000 };
      const { sampler, monitor, pollsAt } = await quietMonitor(settings);
      monitor.start();
      vi.advanceTimersByTime(12_000);
      expect(pollsAt()).toEqual([0, 3000, 6000, 9000, 12_000]);
      expect(monitor.pollPaceMs).toBe(3000);
      monitor.stop();
      sampler.close();
    });

    it('sweeps the whole table by time, not by polls: a stretched poll counts for the intervals it spans', async () => {
      const { sampler, monitor, sweepsAt, t0 } = await quietMonitor(DEFAULT_SETTINGS, 4);

      monitor.start();
      vi.advanceTimersByTime(17_000);
      monitor.stop();
      sampler.close();
      // Every 4 polls while polls are 1 s apart; then every second stretched poll (counted by polls, the
      // sweeps would fall to one in 8 s).
      expect(sweepsAt.map((at) => at - t0)).toEqual([0, 4000, 9000, 13_000, 17_000]);
    });
  });
});
