import type { GroupTimeline, TimelineLane } from '../../../shared/model';

export function laneKey(lane: Pick<TimelineLane, 'pid' | 'startKey'>): string {
  return `${lane.pid}:${lane.startKey}`;
}

function sameSegments(a: TimelineLane, b: TimelineLane): boolean {
  return (
    a.segments.length === b.segments.length &&
    a.segments.every((s, i) => {
      const o = b.segments[i]!;
      return s.from === o.from && s.to === o.to && s.kind === o.kind;
    })
  );
}

function sameMarkers(a: TimelineLane, b: TimelineLane): boolean {
  return (
    a.markers.length === b.markers.length &&
    a.markers.every((m, i) => {
      const o = b.markers[i]!;
      return m.at === o.at && m.kind === o.kind && m.label === o.label;
    })
  );
}

function sameCpu(a: TimelineLane, b: TimelineLane): boolean {
  if (a.cpu.length !== b.cpu.length) return false;
  return a.cpu.every((p, i) => p[0] === b.cpu[i]![0] && p[1] === b.cpu[i]![1]);
}

export function sameLane(a: TimelineLane, b: TimelineLane): boolean {
  return (
    a.pid === b.pid &&
    a.startKey === b.startKey &&
    a.ppid === b.ppid &&
    a.pgid === b.pgid &&
    a.sid === b.sid &&
    a.command === b.command &&
    a.startedAt === b.startedAt &&
    a.exitedAt === b.exitedAt &&
    a.leftGroup === b.leftGroup &&
    a.cpuSeconds === b.cpuSeconds &&
    sameSegments(a, b) &&
    sameMarkers(a, b) &&
    sameCpu(a, b)
  );
}

/**
 * The next timeline with every unchanged lane replaced by the object already rendered, so memoized
 * lanes skip re-rendering when a refresh brings nothing new for them.
 */
export function reuseUnchangedLanes(previous: GroupTimeline, next: GroupTimeline): GroupTimeline {
  const byKey = new Map(previous.lanes.map((lane) => [laneKey(lane), lane]));
  const lanes = next.lanes.map((lane) => {
    const old = byKey.get(laneKey(lane));
    return old && sameLane(old, lane) ? old : lane;
  });
  const unchanged =
    next.from === previous.from &&
    next.to === previous.to &&
    lanes.length === previous.lanes.length &&
    lanes.every((lane, i) => lane === previous.lanes[i]);
  return unchanged ? previous : { ...next, lanes };
}
