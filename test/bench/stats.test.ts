import { describe, expect, it } from 'vitest';
import { median, percentile, ratioSummary, summarize } from '../../bench/lib/stats';
import { parsePs } from '../../bench/lib/ps-parse';

describe('bench statistics', () => {
  it.each([
    [[5], 50, 5],
    [[1, 2, 3, 4], 50, 2.5],
    [[4, 1, 3, 2], 0, 1],
    [[4, 1, 3, 2], 100, 4],
    [[10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160, 170, 180, 190, 200], 95, 190.5],
  ])('percentile(%j, %d) = %d', (values, p, expected) => {
    expect(percentile(values, p)).toBeCloseTo(expected, 9);
  });

  it('gives NaN, not a made-up 0, for no values', () => {
    expect(median([])).toBeNaN();
    expect(summarize([])).toEqual({ median: NaN, min: NaN, max: NaN, n: 0 });
  });

  it('summarizes without reordering the input', () => {
    const values = [3, 1, 2];
    expect(summarize(values)).toEqual({ median: 2, min: 1, max: 3, n: 3 });
    expect(values).toEqual([3, 1, 2]);
  });

  it('takes a ratio of medians, with per-round extremes against the other median', () => {
    expect(ratioSummary([10, 20, 30], [5, 10, 15])).toEqual({ median: 2, min: 1, max: 3, n: 3 });
    expect(ratioSummary([1], [0]).n).toBe(0);
  });
});

describe('ps output parsing', () => {
  it('keeps comm and args together and skips malformed lines', () => {
    const text = [
      '      1       0       1       1     0 Ss         120        0  1024 ?        tini tini -- x',
      '     42       1      42      42  1000 S+          3       12  2048 pts/0    my prog my prog --flag (x)',
      'garbage',
      '',
    ].join('\n');
    const rows = parsePs(text);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toEqual({
      pid: 42,
      ppid: 1,
      pgid: 42,
      sid: 42,
      uid: 1000,
      stat: 'S+',
      elapsedSeconds: 3,
      cpuSeconds: 12,
      rssKb: 2048,
      tty: 'pts/0',
      rest: 'my prog my prog --flag (x)',
    });
  });
});
