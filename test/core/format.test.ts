import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatDuration,
  msUntilAgeReadsOtherwise,
  msUntilCountdownReadsOtherwise,
  scaleBytes,
} from '../../shared/words/format';

const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;
const TiB = 1024 * GiB;

describe('formatBytes (the tray, notifications and windows)', () => {
  it.each([
    [0, '0 B'],
    [1, '1 B'],
    [1023, '1023 B'],
    [KiB, '1.0 KiB'],
    [1536, '1.5 KiB'],
    [102_348, '99.9 KiB'],
    // 99.95 KiB would read 100.0: from 100 on a figure is whole.
    [102_349, '100 KiB'],
    [100 * KiB, '100 KiB'],
    // 1023.9996 KiB would read 1024 KiB: it is the next unit's 1.0.
    [MiB - 1, '1.0 MiB'],
    [MiB, '1.0 MiB'],
    [300 * MiB, '300 MiB'],
    [8 * GiB, '8.0 GiB'],
    [1.5 * TiB, '1.5 TiB'],
    // TiB is the largest unit.
    [2048 * TiB, '2048 TiB'],
  ])('%i bytes → %s', (bytes, text) => expect(formatBytes(bytes)).toBe(text));
});

describe('scaleBytes', () => {
  it('places a value by the figure shown, with decimals below the figure given', () => {
    expect(scaleBytes(9.96 * KiB, 10)).toEqual({ figure: '10', unit: 1 });
    expect(scaleBytes(9.96 * KiB, 100)).toEqual({ figure: '10.0', unit: 1 });
    expect(scaleBytes(1023.4 * MiB, 10)).toEqual({ figure: '1023', unit: 2 });
    expect(scaleBytes(1023.6 * MiB, 10)).toEqual({ figure: '1.0', unit: 3 });
  });
});

describe('formatDuration: the one duration format of every view', () => {
  it.each([
    [0, '0s'],
    [999, '0s'],
    [59_000, '59s'],
    [59_999, '59s'],
    [60_000, '1m00s'],
    [174_000, '2m54s'],
    [725_000, '12m05s'],
    [3_599_999, '59m59s'],
    [3_600_000, '1h00m'],
    [3_660_000, '1h01m'],
    [86_399_999, '23h59m'],
    [86_400_000, '1d0h'],
    [90_000_000, '1d1h'],
    [52 * 3_600_000, '2d4h'],
    // A time already past (a keep that just ran out, a clock read late) is no time, not a negative one.
    [-5, '0s'],
    [-90_000_000, '0s'],
    [NaN, '?'],
  ])('%d ms → %s', (ms, text) => expect(formatDuration(ms)).toBe(text));
});

describe('when a duration reads otherwise', () => {
  // Each case: the wait, and that formatDuration reads the same just before it and otherwise at it.
  it.each([
    [0, 1000],
    [59_400, 600],
    [60_000, 1000],
    [754_321, 679],
    [3_600_000, 60_000],
    [3 * 3_600_000 + 59_999, 1],
    [86_400_000 + 10, 3_600_000 - 10],
  ])('an age of %i ms in %i ms', (age, wait) => {
    expect(msUntilAgeReadsOtherwise(age)).toBe(wait);
    expect(formatDuration(age + wait - 1)).toBe(formatDuration(age));
    expect(formatDuration(age + wait)).not.toBe(formatDuration(age));
  });

  it.each([
    [60_000, 1],
    [59_999, 1000],
    [3_600_500, 501],
    [1500, 501],
  ])('%i ms left in %i ms', (left, wait) => {
    expect(msUntilCountdownReadsOtherwise(left)).toBe(wait);
    expect(formatDuration(left - wait + 1)).toBe(formatDuration(left));
    expect(formatDuration(left - wait)).not.toBe(formatDuration(left));
  });
});
