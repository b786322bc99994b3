import { useEffect, useMemo, useRef, useState } from 'react';
import { KeepButton } from '../overview/KeepButton';
import type { GroupView, TimelineLane } from '../../../shared/model';
import { useCorral } from '../store/store-context';
import { useElementSize } from '../shared-ui/use-element-size';
import { cpuScale, panWindow, rangeWindow, xToTime, zoomWindow, type TimeWindow } from './layout';
import { LaneList } from './LaneList';
import { RANGE_LABELS, RANGES } from './ranges';
import { TimeAxis } from './TimeAxis';
import { TimelineLegend } from './TimelineLegend';
import { foldShortLived, timelineSummary } from '../../../shared/words/timeline-story';
import { effectiveWindow, toZoomState, type ZoomState } from './zoom-state';

const LABEL_WIDTH = 240;
const COMPACT_LABEL_WIDTH = 120;
const FALLBACK_SIZE = { width: 1040, height: 600 };
const ZOOM_STEP = 2;
const WHEEL_STEP = 1.25;

/** The selected group's processes over time. */
export function TimelineView({
  compact = false,
  onStop,
}: {
  compact?: boolean;
  /** Opens the same stop dialog as the overview's Stop. */
  onStop?: (group: GroupView) => void;
}) {
  const groupId = useCorral((s) => s.selectedGroupId);
  if (groupId === null) {
    return (
      <section className="timeline placeholder" aria-label="Group timeline">
        <p className="empty">Select a group to see its timeline.</p>
      </section>
    );
  }
  return (
    <GroupTimelinePanel
      groupId={groupId}
      labelWidth={compact ? COMPACT_LABEL_WIDTH : LABEL_WIDTH}
      onStop={onStop}
    />
  );
}

function GroupTimelinePanel({
  groupId,
  labelWidth,
  onStop,
}: {
  groupId: string;
  labelWidth: number;
  onStop?: (group: GroupView) => void;
}) {
  const live = useCorral((s) => s.snapshot?.groups.find((g) => g.id === groupId) ?? null);
  const [showShortLived, setShowShortLived] = useState(false);
  const timeline = useCorral((s) => s.timeline);
  const error = useCorral((s) => s.timelineError);
  const answered = useCorral((s) => s.timelineFor === groupId);
  const coreNow = useCorral((s) => s.now);
  const range = useCorral((s) => s.range);
  const setRange = useCorral((s) => s.setRange);
  const bodyRef = useRef<HTMLDivElement>(null);
  const axisRef = useRef<HTMLDivElement>(null);
  const size = useElementSize(bodyRef, FALLBACK_SIZE);
  const plotWidth = Math.max(100, Math.floor(size.width - labelWidth));
  const [zoom, setZoom] = useState<ZoomState | null>(null);

  // The core's clock, not this machine's: serve mode may run in a browser elsewhere.
  const now = Math.max(coreNow, timeline?.to ?? 0) || Date.now();
  const lanes = timeline?.lanes;
  const bounds = useMemo(() => rangeWindow(range, now, timeline), [range, now, timeline]);
  const zoomKey = `${groupId}:${range}`;
  const effective = effectiveWindow(zoom, zoomKey, bounds);
  // Lanes memoize on the window object: keep its identity while its numbers are unchanged.
  const view = useMemo<TimeWindow>(
    () => ({ from: effective.from, to: effective.to }),
    [effective.from, effective.to],
  );
  const cpuMax = useMemo(() => cpuScale(lanes ?? []), [lanes]);
  const zoomed = zoom !== null && zoom.key === zoomKey;

  const zoomBy = (factor: number) =>
    setZoom(toZoomState(zoomKey, zoomWindow(view, (view.from + view.to) / 2, factor, bounds), bounds));

  const latest = useRef({ view, bounds, zoomKey, plotWidth, labelWidth });
  useEffect(() => {
    latest.current = { view, bounds, zoomKey, plotWidth, labelWidth };
  });
  useEffect(() => {
    const element = axisRef.current;
    if (!element) return;
    // Native and non-passive: the page must not scroll while the wheel zooms the axis.
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      const { view: v, bounds: b, zoomKey: key, plotWidth: width, labelWidth: label } = latest.current;
      const pan = event.shiftKey || Math.abs(event.deltaX) > Math.abs(event.deltaY);
      const x = event.clientX - element.getBoundingClientRect().left - label;
      const next = pan
        ? panWindow(v, ((event.deltaX || event.deltaY) / width) * (v.to - v.from), b)
        : zoomWindow(v, xToTime(x, v, width), event.deltaY < 0 ? 1 / WHEEL_STEP : WHEEL_STEP, b);
      setZoom(toZoomState(key, next, b));
    };
    element.addEventListener('wheel', onWheel, { passive: false });
    return () => element.removeEventListener('wheel', onWheel);
  }, []);

  const forThisGroup = timeline?.groupId === groupId ? timeline : null;

  return (
    <section
      className="timeline"
      aria-label="Group timeline"
      data-testid="timeline"
      data-group-id={groupId}
      style={{ ['--label-width' as string]: `${labelWidth}px` }}
    >
      <header className="timeline-header">
        <h2>
          <span
            title={
              forThisGroup
                ? `process group ${forThisGroup.pgid}, Unix session ${forThisGroup.sid}`
                : undefined
            }
          >
            Group {forThisGroup?.pgid ?? groupId.split(':')[0]}
          </span>
          {forThisGroup?.agent ? <span className="muted"> · {forThisGroup.agent.name}</span> : null}
        </h2>
        {live ? (
          <span className="timeline-actions" data-testid="timeline-actions">
            <KeepButton group={live} compact />
            {onStop ? (
              <button type="button" className="stop" data-testid="timeline-stop" onClick={() => onStop(live)}>
                Stop
              </button>
            ) : null}
          </span>
        ) : null}
        <div className="segmented" role="group" aria-label="Range">
          {RANGES.map((r) => (
            <button key={r} type="button" aria-pressed={range === r} onClick={() => setRange(r)}>
              {RANGE_LABELS[r]}
            </button>
          ))}
        </div>
        <div className="segmented" role="group" aria-label="Zoom">
          <button type="button" onClick={() => zoomBy(1 / ZOOM_STEP)}>
            Zoom in
          </button>
          <button type="button" onClick={() => zoomBy(ZOOM_STEP)} disabled={!zoomed}>
            Zoom out
          </button>
          <button type="button" onClick={() => setZoom(null)} disabled={!zoomed}>
            Reset zoom
          </button>
        </div>
      </header>
      {forThisGroup ? (
        <p className="timeline-summary" data-testid="timeline-summary">
          {timelineSummary(forThisGroup, now)}
        </p>
      ) : null}
      <div className="cpu-scale muted" data-testid="cpu-scale">
        CPU trace: a full-height lane is {cpuMax.toFixed(0)}% of one core
      </div>
      <TimelineLegend />
      {error ? (
        <p role="alert" className="error">
          Timeline unavailable: {error}
        </p>
      ) : null}
      <svg className="hatch-defs" aria-hidden="true" focusable="false">
        <defs>
          <pattern
            id="not-observed-hatch"
            width="6"
            height="6"
            patternUnits="userSpaceOnUse"
            patternTransform="rotate(45)"
          >
            <line className="hatch-line" x1="0" y1="0" x2="0" y2="6" />
          </pattern>
        </defs>
      </svg>
      <div ref={bodyRef} className="timeline-body">
        <div ref={axisRef} className="axis-row" title="Wheel to zoom, Shift+wheel to pan">
          <div className="axis-spacer" style={{ width: labelWidth }} />
          <TimeAxis view={view} width={plotWidth} />
        </div>
        {forThisGroup === null ? (
          error ? null : (
            <p className="empty">
              {answered ? 'Corral has no timeline for this group.' : 'Loading timeline…'}
            </p>
          )
        ) : forThisGroup.lanes.length === 0 ? (
          <p className="empty">No processes in this range.</p>
        ) : (
          <FoldedLanes
            lanes={forThisGroup.lanes}
            expanded={showShortLived}
            onToggle={() => setShowShortLived((v) => !v)}
            view={view}
            plotWidth={plotWidth}
            now={now}
            cpuMax={cpuMax}
          />
        )}
      </div>
    </section>
  );
}

/**
 * The lanes, long-lived first; processes that lived under a second and did nothing of note (shims,
 * wrappers) fold into one "N short-lived processes" line that opens on demand.
 */
function FoldedLanes({
  lanes,
  expanded,
  onToggle,
  ...plot
}: {
  lanes: readonly TimelineLane[];
  expanded: boolean;
  onToggle: () => void;
  view: TimeWindow;
  plotWidth: number;
  now: number;
  cpuMax: number;
}) {
  const { kept, folded } = useMemo(() => foldShortLived(lanes), [lanes]);
  const shown = expanded ? [...kept, ...folded] : kept;
  // Above the lanes, where it is seen without scrolling past them.
  return (
    <>
      {folded.length > 0 ? (
        <button type="button" className="link short-lived" data-testid="short-lived" onClick={onToggle}>
          {expanded
            ? `Hide the ${folded.length} short-lived process${folded.length === 1 ? '' : 'es'}`
            : `${folded.length} short-lived process${folded.length === 1 ? '' : 'es'} (under 1 s each): show`}
        </button>
      ) : null}
      <LaneList lanes={shown} {...plot} />
    </>
  );
}
