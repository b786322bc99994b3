import { describe, expect, it } from 'vitest';
import { CpuHistory } from '../../main/core/monitor/table/cpu-history';

describe('CpuHistory', () => {
  it('keeps the last hour at sample resolution and older data as minute averages', () => {
    const base = 1_700_000_000_000;
    const h = new CpuHistory(base);
    for (let s = 0; s < 2 * 3600; s++) h.add(base + s * 1000, s < 3600 ? 100 : 50);
    const points = h.points();
    const fine = points.filter(([t]) => t >= base + 3600 * 1000);
    expect(fine).toHaveLength(3600);
    expect(fine.every(([, v]) => v === 50)).toBe(true);
    const coarse = points.filter(([t]) => t < base + 3600 * 1000);
    expect(coarse).toHaveLength(60);
    expect(coarse.every(([, v]) => v === 100)).toBe(true);
    expect(h.byteLength).toBeLessThan(40_000);
  });

  it('returns only points since a time', () => {
    const base = 0;
    const h = new CpuHistory(base);
    for (let s = 0; s < 10; s++) h.add(s * 1000, s);
    expect(h.points(7000)).toEqual([
      [7000, 7],
      [8000, 8],
      [9000, 9],
    ]);
  });
});
