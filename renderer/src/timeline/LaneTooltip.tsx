import type { TimelineLane } from '../../../shared/model';
import { formatCpuSeconds, formatDateTime } from '../shared-ui/format';

export interface TooltipAnchor {
  lane: TimelineLane;
  left: number;
  top: number;
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
      <code className="tooltip-command">{lane.command}</code>
    </div>
  );
}
