import { visibleText } from '../../../shared/words/visible-text';
import type { TimelineLane } from '../../../shared/model';
import { formatClock, formatCpuSeconds, formatDateTime } from '../shared-ui/format';
import { cpuAt } from '../../../shared/words/timeline-story';

function cpuText(percent: number | null): string {
  return percent === null ? 'not measured yet' : `${percent.toFixed(0)}%`;
}

export interface TooltipAnchor {
  lane: TimelineLane;
  left: number;
  top: number;
  /** The time under the pointer, when the pointer is over the plot. */
  at: number | null;
}

export function LaneTooltip({ anchor }: { anchor: TooltipAnchor }) {
  const { lane } = anchor;
  return (
    <div
      className="lane-tooltip"
      role="tooltip"
      id="lane-tooltip"
      data-testid="lane-tooltip"
      style={{ left: anchor.left, top: anchor.top }}
    >
      {anchor.at !== null ? (
        <p className="tooltip-point" data-testid="tooltip-point">
          {formatClock(anchor.at)} · CPU {cpuText(cpuAt(lane.cpu, anchor.at))}
        </p>
      ) : null}
      <dl>
        <dt>PID</dt>
        <dd>{lane.pid}</dd>
        <dt>PPID</dt>
        <dd>{lane.ppid}</dd>
        <dt>PGID</dt>
        <dd>{lane.pgid}</dd>
        <dt>SID</dt>
        <dd>{lane.sid}</dd>
        <dt>CPU</dt>
        <dd>{lane.cpuSeconds === null ? 'unknown' : formatCpuSeconds(lane.cpuSeconds)}</dd>
        <dt>Started</dt>
        <dd>{formatDateTime(lane.startedAt)}</dd>
        {lane.exitedAt !== null ? (
          <>
            <dt>Exited</dt>
            <dd>{formatDateTime(lane.exitedAt)}</dd>
          </>
        ) : null}
      </dl>
      {lane.leftGroup ? <p className="muted">Left the group (setsid); belongs to it by lineage.</p> : null}
      <code className="tooltip-command">{visibleText(lane.command)}</code>
    </div>
  );
}
