import { describe, expect, it } from 'vitest';
import { cpuAt, notObservedSpan, spreadMarkers, timelineSummary } from '../../shared/words/timeline-story';
import { T0, makeLane, makeTimeline } from './support/fixtures';

describe('timeline story', () => {
  it('marks the time before Corral saw a process as not observed', () => {
    expect(
      notObservedSpan({ startedAt: T0, segments: [{ from: T0 + 500, to: null, kind: 'running' }] }),
    ).toEqual({
      from: T0,
      to: T0 + 500,
    });
    expect(
      notObservedSpan({ startedAt: T0, segments: [{ from: T0, to: null, kind: 'running' }] }),
    ).toBeNull();
    expect(notObservedSpan({ startedAt: T0, segments: [] })).toBeNull();
  });

  it('keeps a signal and the exit a millisecond later apart', () => {
    expect(spreadMarkers([100, 100.2, 50, 300], 9)).toEqual([100, 109, 50, 300]);
  });

  it('reads the CPU in force at a time', () => {
    const cpu: Array<[number, number]> = [
      [T0, 5],
      [T0 + 1000, 99],
    ];
    expect(cpuAt(cpu, T0 - 1)).toBeNull();
    expect(cpuAt(cpu, T0 + 500)).toBe(5);
    expect(cpuAt(cpu, T0 + 5000)).toBe(99);
  });

  it('tells the story in one line', () => {
    const timeline = {
      ...makeTimeline('1:1:1', [
        makeLane({
          pid: 101,
          startedAt: T0,
          command: "/bin/bash -c source /x/shell-snapshots/s.sh && eval 'yes > /dev/null &' && pwd -P",
          cpuSeconds: 30,
          segments: [
            { from: T0, to: T0 + 1000, kind: 'running' },
            { from: T0 + 1000, to: null, kind: 'orphaned' },
            { from: T0 + 5000, to: null, kind: 'runaway' },
          ],
          markers: [{ at: T0 + 1000, kind: 'reparented', label: 'reparented to 1' }],
        }),
      ]),
      agent: { name: 'claude-code', pid: 42 },
    };
    const line = timelineSummary(timeline, T0 + 9000);
    expect(line).toMatch(/^started by claude-code \(pid 42\) at .+: yes > \/dev\/null &/);
    expect(line).toMatch(/orphaned at /);
    expect(line).toMatch(/runaway since /);
    expect(line).toContain('CPU burned 30.0 s');
  });
});
