import { describe, expect, it } from 'vitest';
import { CpuMeter } from '../../main/core/analysis/cpu-meter';
import { identityKey } from '../../main/core/model/identity';
import { rec } from './record-fixture';

const key = (pid: number, startKey = pid * 10) => identityKey(pid, startKey);

describe('CpuMeter: percent of one core from CPU-time deltas between two readings', () => {
  it('has no percent until the second reading of an identity, then the delta over the interval', () => {
    const meter = new CpuMeter();
    // A process that already used 50 s of CPU: a lifetime average would report it; a first reading does not.
    expect(meter.update([rec({ pid: 10, cpuTimeMs: 50_000 })], 1000).get(key(10))).toBeNull();
    // 300 ms of CPU over 1000 ms: 30 %, whatever the 50 s before.
    expect(meter.update([rec({ pid: 10, cpuTimeMs: 50_300 })], 2000).get(key(10))).toBeCloseTo(30);
    // Two cores' worth over 500 ms: 200 %.
    expect(meter.update([rec({ pid: 10, cpuTimeMs: 51_300 })], 2500).get(key(10))).toBeCloseTo(200);
  });

  it('starts a reused pid (another start key) without a reading, and forgets identities not in the table', () => {
    const meter = new CpuMeter();
    meter.update([rec({ pid: 10, cpuTimeMs: 100 }), rec({ pid: 11, cpuTimeMs: 100 })], 1000);
    const next = meter.update([rec({ pid: 10, startKey: 999, cpuTimeMs: 900 })], 2000);
    expect(next.get(identityKey(10, 999))).toBeNull();
    expect(next.has(key(11))).toBe(false);
    // pid 11 was forgotten: seen again, it starts over.
    expect(meter.update([rec({ pid: 11, cpuTimeMs: 600 })], 3000).get(key(11))).toBeNull();
  });

  it('reading(): the same rule for one identity, kept in place', () => {
    const meter = new CpuMeter();
    expect(meter.reading(key(7), 1000, 10_000)).toBeNull();
    expect(meter.reading(key(7), 1250, 10_500)).toBeCloseTo(50);
    expect(meter.reading(key(7), 1250, 11_500)).toBe(0);
    // No time passed: no percent rather than a division by zero.
    expect(meter.reading(key(7), 1300, 11_500)).toBeNull();
    meter.forget(key(7));
    expect(meter.reading(key(7), 2000, 12_000)).toBeNull();
  });

  it('never reports a negative percent when the CPU time reads lower (a torn read)', () => {
    const meter = new CpuMeter();
    meter.reading(key(8), 5000, 1000);
    expect(meter.reading(key(8), 4000, 2000)).toBe(0);
  });
});
