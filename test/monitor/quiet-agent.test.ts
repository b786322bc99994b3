import { afterEach, describe, expect, it } from 'vitest';
import type { MonitorEvent } from '../../shared/model';
import { DEFAULT_SETTINGS } from '../../main/core/config/defaults';
import { DEFAULT_QUIET_POLL_INTERVAL_MS } from '../../shared/settings-table';
import { Monitor } from '../../main/core/monitor/monitor';
import { QUIET_COUNTER_WATCH_MS } from '../../main/core/monitor/schedule/watch-pace';
import { LinuxSampler } from '../../main/core/sampling/linux/linux-sampler';
import { matcherFor } from '../../main/core/analysis/signatures';
import { CLAUDE_MARKERS, FakeAgent } from '../support/fake-agent';
import { waitFor } from '../support/wait-for';

let stop: (() => void) | null = null;
afterEach(() => {
  stop?.();
  stop = null;
});

describe('a quiet agent that marks its tool calls', () => {
  it('gets only looks at the pid counter between stretched polls, and its next leftover is found', async () => {
    const agent = await FakeAgent.start({ markers: { ...CLAUDE_MARKERS, CLAUDE_PID: '$PID' } });
    // A tool call whose shell stays: the monitor sees one of the agent's tool calls carry its markers.
    await agent.toolCall('sleep 600; :');
    const matcher = matcherFor(DEFAULT_SETTINGS);
    const sampler = new LinuxSampler({ markerKeys: matcher.markerKeys });
    const monitor = new Monitor({ sampler, matcher, settings: DEFAULT_SETTINGS });
    const looks: ('poll' | 'watch')[] = [];
    const poll = monitor.poll.bind(monitor);
    monitor.poll = () => {
      looks.push('poll');
      poll();
    };
    const watch = monitor.watch.bind(monitor);
    monitor.watch = () => {
      looks.push('watch');
      watch();
    };
    const events: { event: MonitorEvent; look: number }[] = [];
    monitor.onEvent((event) => events.push({ event, look: looks.length - 1 }));
    monitor.start();
    stop = () => {
      monitor.stop();
      sampler.close();
    };
    expect(monitor.watchPaceMs).toBe(15);
    await waitFor('the monitor to go quiet', () => monitor.watchPaceMs === QUIET_COUNTER_WATCH_MS, {
      timeoutMs: 15_000,
    });
    // Quiet from 5 s after the last birth a look saw, which may be a poll's own instant: the tool call
    // starts right after a poll instead, so that the agent's fork (slow on a loaded machine) is not
    // what the next poll finds, which would rightly make the watch busy again.
    const polled = looks.length;
    await waitFor('a poll after going quiet', () => looks.length > polled, { timeoutMs: 5_000 });
    const quietFrom = looks.length;
    // Polls stretch too (settings' quietPollIntervalMs): exits still wake a look at once, and between
    // polls the watch looks at the pid counter (a quiet agent's next tool call is not left to a poll 2 s away).
    expect(monitor.pollPaceMs).toBe(DEFAULT_QUIET_POLL_INTERVAL_MS);
    await waitFor('two looks at the counter between two polls', () => {
      const since = looks.slice(quietFrom);
      const firstPoll = since.indexOf('poll');
      return firstPoll >= 0 && since.slice(firstPoll + 1).filter((l) => l === 'watch').length >= 2;
    });
    expect(monitor.watchPaceMs).toBe(QUIET_COUNTER_WATCH_MS);

    // The shell exits at once: no look can have seen it alive.
    const call = await agent.toolCall('sleep 600 & echo done');
    await call.exited();
    const orphaned = await waitFor(
      'the orphaned event',
      () => events.find((e) => e.event.type === 'orphaned' && e.event.pgid === call.pid),
      { timeoutMs: 5_000 },
    );
    expect(orphaned.event.agent).toEqual({ name: 'claude-code', pid: agent.pid });
    // The birth makes the watch busy again, and the polls come at the settings' interval.
    expect(monitor.watchPaceMs).toBe(15);
    expect(monitor.pollPaceMs).toBe(DEFAULT_SETTINGS.pollIntervalMs);
  });
});
