import { memo } from 'react';
import { formatClock } from '../shared-ui/format';
import { ticks, timeToX, type TimeWindow } from './layout';

export const TimeAxis = memo(function TimeAxis({ view, width }: { view: TimeWindow; width: number }) {
  return (
    <svg className="time-axis" width={width} height={20} data-testid="time-axis" aria-hidden="true">
      {ticks(view, Math.max(2, Math.floor(width / 110))).map((t) => {
        const x = timeToX(t, view, width);
        return (
          <g key={t}>
            <line x1={x} y1={14} x2={x} y2={20} />
            <text x={x} y={11} textAnchor={labelAnchor(x, width)}>
              {formatClock(t)}
            </text>
          </g>
        );
      })}
    </svg>
  );
});

/** Half a clock label's width: a label this close to an edge is drawn inward, never clipped by it. */
const HALF_LABEL = 40;

export function labelAnchor(x: number, width: number): 'start' | 'middle' | 'end' {
  if (x < HALF_LABEL) return 'start';
  if (x > width - HALF_LABEL) return 'end';
  return 'middle';
}
