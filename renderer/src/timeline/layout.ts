import type { LaneMarker, LaneSegment, TimelineLane } from '../../../shared/model';
import type { TimeRange } from '../store/ui-slice';
import { RANGE_MS } from './ranges';

/** A visible stretch of time, ms since epoch. */
export interface TimeWindow {
  from: number;
  to: number;
}

export interface Span {
  x: number;
  width: number;
}

const MIN_SPAN_MS = 1_000;

export function timeToX(t: number, view: TimeWindow, width: number): number {
  const span = view.to - view.from;
  if (span <= 0) return 0;
  return ((t - view.from) / span) * width;
}

export function xToTime(x: number, view: TimeWindow, width: number): number {
  if (width <= 0) return view.from;
  return view.from + (x / width) * (view.to - view.from);
}

/** The part of [from, to] inside the view, in pixels; null when it lies wholly outside. */
export function spanGeometry(from: number, to: number, view: TimeWindow, width: number): Span | null {
  const start = Math.max(from, view.from);
  const end = Math.min(to, view.to);
  if (end < start || to < view.from || from > view.to) return null;
  const x = timeToX(start, view, width);
  // Keep a sliver visible for short-lived processes rather than dropping them.
  return { x, width: Math.max(1, timeToX(end, view, width) - x) };
}

export function segmentGeometry(
  segment: LaneSegment,
  view: TimeWindow,
  width: number,
  now: number,
): Span | null {
  return spanGeometry(segment.from, segment.to ?? now, view, width);
}

export function laneBar(lane: TimelineLane, view: TimeWindow, width: number, now: number): Span | null {
  return spanGeometry(lane.startedAt, lane.exitedAt ?? now, view, width);
}

export function markerX(marker: LaneMarker, view: TimeWindow, width: number): number | null {
  if (marker.at < view.from || marker.at > view.to) return null;
  return timeToX(marker.at, view, width);
}

/** The view a range shows; `all` starts at the earliest thing the timeline knows. */
export function rangeWindow(
  range: TimeRange,
  now: number,
  timeline: { from: number; lanes: readonly TimelineLane[] } | null,
): TimeWindow {
  const span = RANGE_MS[range];
  if (span !== null) return { from: now - span, to: now };
  let from = timeline?.from ?? now - MIN_SPAN_MS;
  for (const lane of timeline?.lanes ?? []) from = Math.min(from, lane.startedAt);
  return { from: Math.min(from, now - MIN_SPAN_MS), to: now };
}

/**
 * Zooms by `factor` (< 1 zooms in) keeping `anchor` at the same place on screen, clamped to `bounds`
 * and to a minimum span.
 */
export function zoomWindow(
  view: TimeWindow,
  anchor: number,
  factor: number,
  bounds: TimeWindow,
  minSpan = MIN_SPAN_MS,
): TimeWindow {
  const boundsSpan = bounds.to - bounds.from;
  const span = Math.min(boundsSpan, Math.max(minSpan, (view.to - view.from) * factor));
  const ratio = view.to > view.from ? (anchor - view.from) / (view.to - view.from) : 0.5;
  let from = anchor - span * Math.min(1, Math.max(0, ratio));
  from = Math.min(Math.max(from, bounds.from), bounds.to - span);
  return { from, to: from + span };
}

/** Moves the view by `deltaMs`, staying inside `bounds`. */
export function panWindow(view: TimeWindow, deltaMs: number, bounds: TimeWindow): TimeWindow {
  const span = view.to - view.from;
  const from = Math.min(Math.max(view.from + deltaMs, bounds.from), bounds.to - span);
  return { from, to: from + span };
}

/**
 * Points inside the view reduced to at most `maxPoints`: one per time bucket, keeping the bucket's
 * peak so short CPU spikes survive long ranges. The neighbours just outside the view are kept so
 * the trace reaches the edges.
 */
export function downsample(
  points: ReadonlyArray<readonly [number, number]>,
  view: TimeWindow,
  maxPoints: number,
): Array<[number, number]> {
  let first = 0;
  while (first < points.length && points[first]![0] < view.from) first++;
  let last = points.length - 1;
  while (last >= 0 && points[last]![0] > view.to) last--;
  const inside = points.slice(first, last + 1);
  const before = first > 0 ? points[first - 1] : undefined;
  const after = last + 1 < points.length ? points[last + 1] : undefined;

  let reduced: Array<[number, number]>;
  if (inside.length <= maxPoints || maxPoints < 1) {
    reduced = inside.map(([t, v]) => [t, v]);
  } else {
    const bucketMs = (view.to - view.from) / maxPoints;
    reduced = [];
    let bucket = -1;
    for (const [t, v] of inside) {
      const index = Math.min(maxPoints - 1, Math.floor((t - view.from) / bucketMs));
      const current = reduced[reduced.length - 1];
      if (index !== bucket || !current) {
        reduced.push([t, v]);
        bucket = index;
      } else if (v > current[1]) {
        reduced[reduced.length - 1] = [t, v];
      }
    }
  }
  if (before) reduced.unshift([before[0], before[1]]);
  if (after) reduced.push([after[0], after[1]]);
  return reduced;
}

/** SVG polyline points for a CPU trace: 0 % at the lane's bottom, `maxPercent` at its top. */
export function cpuPolyline(
  points: ReadonlyArray<readonly [number, number]>,
  view: TimeWindow,
  width: number,
  height: number,
  maxPercent: number,
): string {
  const scale = maxPercent > 0 ? maxPercent : 100;
  return points
    .map(([t, v]) => {
      const x = Math.min(width, Math.max(0, timeToX(t, view, width)));
      const y = height - (Math.min(v, scale) / scale) * height;
      return `${round(x)},${round(y)}`;
    })
    .join(' ');
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

/** Lanes to render for a scrolled viewport, with `overscan` extra lanes on each side. */
export function visibleLaneRange(
  scrollTop: number,
  viewportHeight: number,
  laneHeight: number,
  count: number,
  overscan = 5,
): { start: number; end: number } {
  const start = Math.max(0, Math.floor(scrollTop / laneHeight) - overscan);
  const end = Math.min(count, Math.ceil((scrollTop + viewportHeight) / laneHeight) + overscan);
  return { start, end: Math.max(start, end) };
}

const TICK_STEPS_MS = [
  1_000,
  2_000,
  5_000,
  10_000,
  15_000,
  30_000,
  60_000,
  2 * 60_000,
  5 * 60_000,
  10 * 60_000,
  15 * 60_000,
  30 * 60_000,
  3_600_000,
  2 * 3_600_000,
  3 * 3_600_000,
  6 * 3_600_000,
  12 * 3_600_000,
  86_400_000,
  2 * 86_400_000,
  7 * 86_400_000,
];

/** Round-numbered tick times inside the view, about `target` of them. */
export function ticks(view: TimeWindow, target = 6): number[] {
  const span = view.to - view.from;
  if (span <= 0) return [];
  const step = TICK_STEPS_MS.find((s) => span / s <= target) ?? TICK_STEPS_MS[TICK_STEPS_MS.length - 1]!;
  const result: number[] = [];
  for (let t = Math.ceil(view.from / step) * step; t <= view.to; t += step) result.push(t);
  return result;
}

/** The highest CPU reading in any lane, never below 100 % so idle traces stay flat. */
export function cpuScale(lanes: readonly TimelineLane[]): number {
  let max = 100;
  for (const lane of lanes) for (const [, v] of lane.cpu) if (v > max) max = v;
  return max;
}
