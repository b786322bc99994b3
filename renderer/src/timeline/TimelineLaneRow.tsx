import { visibleText } from '../../../shared/words/visible-text';
import { memo, useMemo, type MouseEvent, type FocusEvent } from 'react';
import { commandThatMatters } from '../../../shared/words/command-summary';
import type { TimelineLane } from '../../../shared/model';
import {
  cpuPolyline,
  downsample,
  laneBar,
  markerX,
  segmentGeometry,
  spanGeometry,
  type TimeWindow,
} from './layout';
import { MarkerGlyph } from './MarkerGlyph';
import { notObservedSpan, spreadMarkers } from '../../../shared/words/timeline-story';

const MARKER_GAP = 9;

export const LANE_HEIGHT = 28;
const BAR_Y = 8;
const BAR_HEIGHT = 12;
const TRACE_HEIGHT = LANE_HEIGHT - 4;

interface LaneRowProps {
  lane: TimelineLane;
  index: number;
  view: TimeWindow;
  width: number;
  now: number;
  cpuMax: number;
  onHover: (lane: TimelineLane, element: HTMLElement, clientX: number | null) => void;
  onLeave: () => void;
}

export const TimelineLaneRow = memo(function TimelineLaneRow({
  lane,
  index,
  view,
  width,
  now,
  cpuMax,
  onHover,
  onLeave,
}: LaneRowProps) {
  const bar = laneBar(lane, view, width, now);
  const trace = useMemo(
    () =>
      cpuPolyline(
        downsample(lane.cpu, view, Math.max(2, Math.floor(width / 2))),
        view,
        width,
        TRACE_HEIGHT,
        cpuMax,
      ),
    [lane.cpu, view, width, cpuMax],
  );
  const unseen = notObservedSpan(lane);
  const unseenGeometry = unseen ? spanGeometry(unseen.from, unseen.to, view, width) : null;
  const markerXs = lane.markers.map((marker) => markerX(marker, view, width));
  const spread = spreadMarkers(
    markerXs.filter((x): x is number => x !== null),
    MARKER_GAP,
  );
  let nextSpread = 0;
  const placedXs = markerXs.map((x) => (x === null ? null : spread[nextSpread++]!));
  const exited = lane.exitedAt !== null;
  const className = ['lane', exited ? 'exited' : '', lane.leftGroup ? 'left-group' : '']
    .filter(Boolean)
    .join(' ');

  return (
    <div
      className={className}
      role="listitem"
      tabIndex={0}
      data-testid="lane"
      data-pid={lane.pid}
      data-left-group={lane.leftGroup ? 'true' : undefined}
      data-exited={exited ? 'true' : undefined}
      aria-label={`pid ${lane.pid}: ${visibleText(lane.command)}`}
      style={{ transform: `translateY(${index * LANE_HEIGHT}px)` }}
      onMouseMove={(event: MouseEvent<HTMLDivElement>) => onHover(lane, event.currentTarget, event.clientX)}
      onMouseLeave={onLeave}
      onFocus={(event: FocusEvent<HTMLDivElement>) => onHover(lane, event.currentTarget, null)}
      onBlur={onLeave}
    >
      <div className="lane-label" title={visibleText(lane.command)}>
        <span className="pid">{lane.pid}</span>
        {lane.leftGroup ? (
          <span className="badge badge-left-group" data-flag="left-group">
            left group
          </span>
        ) : null}
        <span className="lane-command">{visibleText(commandThatMatters(lane.command))}</span>
      </div>
      <svg className="lane-plot" width={width} height={LANE_HEIGHT} aria-hidden="true">
        {bar ? <rect className="lane-bar" x={bar.x} y={BAR_Y} width={bar.width} height={BAR_HEIGHT} /> : null}
        {unseenGeometry ? (
          <rect
            className="segment segment-not-observed"
            data-testid="not-observed"
            x={unseenGeometry.x}
            y={BAR_Y}
            width={unseenGeometry.width}
            height={BAR_HEIGHT}
          >
            <title>Before Corral saw it: the process ran, but Corral was not watching yet</title>
          </rect>
        ) : null}
        {lane.segments.map((segment, i) => {
          const geometry = segmentGeometry(segment, view, width, now);
          if (!geometry) return null;
          return (
            <rect
              key={i}
              className={`segment segment-${segment.kind}`}
              data-testid="segment"
              data-kind={segment.kind}
              x={geometry.x}
              y={BAR_Y}
              width={geometry.width}
              height={BAR_HEIGHT}
            />
          );
        })}
        {trace ? <polyline className="cpu-trace" data-testid="cpu-trace" points={trace} /> : null}
        {lane.markers.map((marker, i) => {
          const x = placedXs[i];
          if (x === null || x === undefined) return null;
          return <MarkerGlyph key={i} marker={marker} x={x} height={LANE_HEIGHT} />;
        })}
      </svg>
    </div>
  );
});
