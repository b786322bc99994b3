import { useCallback, useEffect, useRef, useState } from 'react';
import type { TimelineLane } from '../../../shared/model';
import { useElementSize } from '../shared-ui/use-element-size';
import { visibleLaneRange, xToTime, type TimeWindow } from './layout';
import { laneKey } from './lane-identity';
import { LaneTooltip, type TooltipAnchor } from './LaneTooltip';
import { LANE_HEIGHT, TimelineLaneRow } from './TimelineLaneRow';

interface LaneListProps {
  lanes: readonly TimelineLane[];
  view: TimeWindow;
  plotWidth: number;
  now: number;
  cpuMax: number;
}

const FALLBACK_VIEWPORT = { width: 800, height: 480 };

/** Only lanes near the viewport are mounted, so groups with hundreds of processes stay smooth. */
export function LaneList({ lanes, view, plotWidth, now, cpuMax }: LaneListProps) {
  const viewportRef = useRef<HTMLDivElement>(null);
  const viewport = useElementSize(viewportRef, FALLBACK_VIEWPORT);
  const [scrollTop, setScrollTop] = useState(0);
  const [tooltip, setTooltip] = useState<TooltipAnchor | null>(null);
  const latest = useRef({ view, plotWidth });
  useEffect(() => {
    latest.current = { view, plotWidth };
  });
  const { start, end } = visibleLaneRange(scrollTop, viewport.height, LANE_HEIGHT, lanes.length);

  const onHover = useCallback((lane: TimelineLane, element: HTMLElement, clientX: number | null) => {
    const container = viewportRef.current;
    if (!container) return;
    const box = container.getBoundingClientRect();
    const row = element.getBoundingClientRect();
    const left = clientX === null ? 16 : clientX - box.left + 12;
    const top = row.bottom - box.top + container.scrollTop + 4;
    const plot = element.querySelector('.lane-plot')?.getBoundingClientRect();
    const { view: v, plotWidth: w } = latest.current;
    const at =
      clientX !== null && plot && clientX >= plot.left
        ? Math.round(xToTime(clientX - plot.left, v, w))
        : null;
    setTooltip((current) =>
      current && current.lane === lane && current.left === left && current.top === top && current.at === at
        ? current
        : { lane, left, top, at },
    );
  }, []);
  const onLeave = useCallback(() => setTooltip(null), []);

  // The hovered lane may be replaced by a refresh: show the fresh record for the same process.
  const hoveredLane = tooltip
    ? (lanes.find((l) => laneKey(l) === laneKey(tooltip.lane)) ?? tooltip.lane)
    : null;

  return (
    <div
      ref={viewportRef}
      className="lane-viewport"
      onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
    >
      <div
        className="lane-canvas"
        role="list"
        aria-label="Processes"
        style={{ height: lanes.length * LANE_HEIGHT }}
      >
        {lanes.slice(start, end).map((lane, i) => (
          <TimelineLaneRow
            key={laneKey(lane)}
            lane={lane}
            index={start + i}
            view={view}
            width={plotWidth}
            now={now}
            cpuMax={cpuMax}
            onHover={onHover}
            onLeave={onLeave}
          />
        ))}
      </div>
      {tooltip && hoveredLane ? <LaneTooltip anchor={{ ...tooltip, lane: hoveredLane }} /> : null}
    </div>
  );
}
