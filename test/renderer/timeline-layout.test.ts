import { describe, expect, it } from 'vitest';
import {
  cpuPolyline,
  cpuScale,
  downsample,
  laneBar,
  markerX,
  panWindow,
  rangeWindow,
  segmentGeometry,
  spanGeometry,
  ticks,
  timeToX,
  visibleLaneRange,
  xToTime,
  zoomWindow,
} from '../../renderer/src/timeline/layout';
import { effectiveWindow, toZoomState } from '../../renderer/src/timeline/zoom-state';
import { sinceForRange } from '../../renderer/src/sync/timeline-sync';
import { makeLane } from './support/fixtures';

const view = { from: 1000, to: 2000 };

describe('time to x', () => {
  it('maps the window linearly onto the width and back', () => {
    expect(timeToX(1000, view, 500)).toBe(0);
    expect(timeToX(1500, view, 500)).toBe(250);
    expect(timeToX(2000, view, 500)).toBe(500);
    expect(timeToX(2500, view, 500)).toBe(750);
    expect(xToTime(250, view, 500)).toBe(1500);
    expect(timeToX(5, { from: 10, to: 10 }, 500)).toBe(0);
  });
});

describe('segment geometry', () => {
  it('clips to the window and drops what lies outside', () => {
    expect(spanGeometry(1200, 1400, view, 1000)).toEqual({ x: 200, width: 200 });
    expect(spanGeometry(500, 1100, view, 1000)).toEqual({ x: 0, width: 100 });
    expect(spanGeometry(1900, 3000, view, 1000)).toEqual({ x: 900, width: 100 });
    expect(spanGeometry(100, 900, view, 1000)).toBeNull();
    expect(spanGeometry(2100, 2200, view, 1000)).toBeNull();
  });

  it('keeps a one pixel sliver for instants', () => {
    expect(spanGeometry(1500, 1500, view, 1000)).toEqual({ x: 500, width: 1 });
  });

  it('runs open segments and live lanes up to now', () => {
    expect(segmentGeometry({ from: 1500, to: null, kind: 'orphaned' }, view, 1000, 1800)).toEqual({
      x: 500,
      width: 300,
    });
    expect(laneBar(makeLane({ pid: 1, startedAt: 1100, exitedAt: null }), view, 1000, 1600)).toEqual({
      x: 100,
      width: 500,
    });
    expect(laneBar(makeLane({ pid: 1, startedAt: 1100, exitedAt: 1300 }), view, 1000, 1600)).toEqual({
      x: 100,
      width: 200,
    });
  });

  it('places markers inside the window only', () => {
    expect(markerX({ at: 1250, kind: 'signal', label: 'SIGTERM' }, view, 1000)).toBe(250);
    expect(markerX({ at: 999, kind: 'signal', label: 'SIGTERM' }, view, 1000)).toBeNull();
  });
});

describe('ranges and zoom', () => {
  it('ends fixed ranges at now and starts "all" at the earliest lane', () => {
    expect(rangeWindow('5m', 1_000_000, null)).toEqual({ from: 700_000, to: 1_000_000 });
    expect(rangeWindow('1h', 10_000_000, null)).toEqual({ from: 6_400_000, to: 10_000_000 });
    const timeline = { from: 900_000, lanes: [makeLane({ pid: 1, startedAt: 400_000 })] };
    expect(rangeWindow('all', 1_000_000, timeline)).toEqual({ from: 400_000, to: 1_000_000 });
    expect(sinceForRange('5m', 1_000_000)).toBe(700_000);
    expect(sinceForRange('all', 1_000_000)).toBeUndefined();
  });

  it('zooms around the anchor and stays inside the bounds', () => {
    const bounds = { from: 0, to: 100_000 };
    expect(zoomWindow(bounds, 50_000, 0.5, bounds)).toEqual({ from: 25_000, to: 75_000 });
    // The anchor keeps its place on screen: a quarter in stays a quarter in.
    const zoomed = zoomWindow(bounds, 25_000, 0.5, bounds);
    expect(zoomed).toEqual({ from: 12_500, to: 62_500 });
    expect(zoomWindow(zoomed, 20_000, 100, bounds)).toEqual(bounds);
    expect(zoomWindow(bounds, 100_000, 0.000001, bounds)).toEqual({ from: 99_000, to: 100_000 });
  });

  it('pans without leaving the bounds', () => {
    const bounds = { from: 0, to: 100_000 };
    expect(panWindow({ from: 10_000, to: 20_000 }, 5_000, bounds)).toEqual({ from: 15_000, to: 25_000 });
    expect(panWindow({ from: 10_000, to: 20_000 }, -50_000, bounds)).toEqual({ from: 0, to: 10_000 });
    expect(panWindow({ from: 80_000, to: 95_000 }, 50_000, bounds)).toEqual({ from: 85_000, to: 100_000 });
  });

  it('keeps a zoom pinned to now sliding with live data', () => {
    const bounds = { from: 0, to: 100_000 };
    const pinned = toZoomState('k', { from: 80_000, to: 100_000 }, bounds)!;
    expect(pinned.pinnedToNow).toBe(true);
    expect(effectiveWindow(pinned, 'k', { from: 10_000, to: 110_000 })).toEqual({
      from: 90_000,
      to: 110_000,
    });
    const past = toZoomState('k', { from: 20_000, to: 40_000 }, bounds)!;
    expect(effectiveWindow(past, 'k', { from: 10_000, to: 110_000 })).toEqual({ from: 20_000, to: 40_000 });
    expect(effectiveWindow(past, 'other', bounds)).toBe(bounds);
    expect(toZoomState('k', bounds, bounds)).toBeNull();
  });
});

describe('downsampling', () => {
  const points: Array<[number, number]> = Array.from({ length: 1000 }, (_, i) => [
    i * 10,
    i === 503 ? 400 : 10,
  ]);

  it('returns points inside the window plus one neighbour each side when few enough', () => {
    const result = downsample(points, { from: 100, to: 150 }, 100);
    expect(result.map(([t]) => t)).toEqual([90, 100, 110, 120, 130, 140, 150, 160]);
  });

  it('caps the number of points for long ranges and keeps the peak', () => {
    const result = downsample(points, { from: 0, to: 9990 }, 50);
    expect(result.length).toBeLessThanOrEqual(50);
    expect(Math.max(...result.map(([, v]) => v))).toBe(400);
    expect(result.map(([t]) => t)).toEqual([...result.map(([t]) => t)].sort((a, b) => a - b));
  });

  it('returns nothing for a window with no data and no neighbours', () => {
    expect(downsample([], view, 10)).toEqual([]);
  });
});

describe('cpu trace', () => {
  it('draws 0 % at the bottom and the scale at the top, clipped to the plot', () => {
    expect(
      cpuPolyline(
        [
          [1000, 0],
          [1500, 50],
          [2000, 100],
          [2500, 300],
        ],
        view,
        200,
        20,
        100,
      ),
    ).toBe('0,20 100,10 200,0 200,0');
  });

  it('scales to the busiest lane but never below one core', () => {
    expect(cpuScale([makeLane({ pid: 1, cpu: [[0, 20]] })])).toBe(100);
    expect(cpuScale([makeLane({ pid: 1, cpu: [[0, 20]] }), makeLane({ pid: 2, cpu: [[0, 250]] })])).toBe(250);
  });
});

describe('virtualization and ticks', () => {
  it('mounts only the lanes near the viewport', () => {
    expect(visibleLaneRange(0, 280, 28, 500, 5)).toEqual({ start: 0, end: 15 });
    expect(visibleLaneRange(2800, 280, 28, 500, 5)).toEqual({ start: 95, end: 115 });
    expect(visibleLaneRange(100_000, 280, 28, 500, 5)).toEqual({ start: 3566, end: 3566 });
    expect(visibleLaneRange(0, 280, 28, 3, 5)).toEqual({ start: 0, end: 3 });
  });

  it('puts ticks on round times inside the window', () => {
    const result = ticks({ from: 61_000, to: 361_000 }, 6);
    expect(result).toEqual([120_000, 180_000, 240_000, 300_000, 360_000]);
  });
});
