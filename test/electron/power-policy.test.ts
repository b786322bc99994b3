import { describe, expect, it } from 'vitest';
import { CpuMeter } from '../../main/core/analysis/cpu-meter';
import { nextRunawayState, initialRunawayState } from '../../main/core/analysis/runaway';
import { readingsAfter, type PowerEvent } from '../../main/electron/power-policy';

describe('readingsAfter', () => {
  const table: Array<[string, PowerEvent, 'rebaseline' | 'keep']> = [
    ['the machine goes to sleep', { kind: 'suspend' }, 'rebaseline'],
    ['the machine wakes', { kind: 'resume' }, 'rebaseline'],
    ['a snapshot on time', { kind: 'snapshot', sinceLastMs: 1000, pollIntervalMs: 1000 }, 'keep'],
    ['a late snapshot (jitter)', { kind: 'snapshot', sinceLastMs: 4000, pollIntervalMs: 1000 }, 'keep'],
    [
      'App Nap: 8 s between 1 s polls',
      { kind: 'snapshot', sinceLastMs: 8000, pollIntervalMs: 1000 },
      'rebaseline',
    ],
    ['a slow poll on time', { kind: 'snapshot', sinceLastMs: 10_000, pollIntervalMs: 5000 }, 'keep'],
    ['a slow poll, stalled', { kind: 'snapshot', sinceLastMs: 16_000, pollIntervalMs: 5000 }, 'rebaseline'],
  ];
  it.each(table)('%s', (_, event, expected) => {
    expect(readingsAfter(event)).toBe(expected);
  });
});

describe('a rebaseline', () => {
  it('makes the first reading after a sleep unknown instead of an average over the sleep', () => {
    const meter = new CpuMeter();
    expect(meter.reading('1@1', 0, 0)).toBeNull();
    expect(meter.reading('1@1', 1000, 1000)).toBe(100);
    meter.rebaseline();
    expect(meter.reading('1@1', 1500, 3_600_000)).toBeNull();
    expect(meter.reading('1@1', 2500, 3_601_000)).toBe(100);
  });

  it('keeps a sleep from completing a hot streak that began before it', () => {
    const policy = { cpuPercent: 90, windowSeconds: 120 };
    const before = nextRunawayState(initialRunawayState(), 100, 0, policy);
    // Without a rebaseline, one hot reading an hour later would make it a runaway.
    expect(nextRunawayState(before, 100, 3_600_000, policy).active).toBe(true);
    // The monitor's rebaseline resets streaks that are not yet runaways (Monitor.rebaseline).
    expect(nextRunawayState(initialRunawayState(), 100, 3_600_000, policy).active).toBe(false);
  });
});
