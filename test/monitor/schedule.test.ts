import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS } from '../../main/core/config/defaults';
import { Monitor } from '../../main/core/monitor/monitor';
import { LinuxSampler } from '../../main/core/sampling/linux/linux-sampler';
import { matcherFor } from '../../main/core/snapshot/one-shot-snapshot';

afterEach(() => {
  vi.useRealTimers();
});

describe('the monitor schedule', () => {
  it('keeps one timer for its poll and its watch, and leaves none behind when stopped', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const settings = { ...DEFAULT_SETTINGS, pollIntervalMs: 50 };
    const sampler = new LinuxSampler({ markerKeys: matcherFor(settings).markerKeys });
    const monitor = new Monitor({ sampler, matcher: matcherFor(settings), settings, watchIntervalMs: 10 });
    let polls = 0;
    const poll = monitor.poll.bind(monitor);
    monitor.poll = () => {
      polls++;
      poll();
    };
    monitor.start();
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(500);
    expect(polls).toBeGreaterThanOrEqual(5);
    expect(vi.getTimerCount()).toBe(1);
    monitor.stop();
    expect(vi.getTimerCount()).toBe(0);
    const after = polls;
    vi.advanceTimersByTime(500);
    expect(polls).toBe(after);
    sampler.close();
  });
});
