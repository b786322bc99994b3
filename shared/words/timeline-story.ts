import { visibleText } from './visible-text';
import { commandThatMatters } from './command-summary';
import type { GroupTimeline, TimelineLane } from '../model';
import { formatCpuSeconds } from './cpu-time';
import { formatClock } from './format';

/**
 * The part of a lane's life before Corral first saw the process: it ran, but nobody observed it.
 * Null when Corral saw it start (the first segment begins at its start).
 */
export function notObservedSpan(
  lane: Pick<TimelineLane, 'startedAt' | 'segments'>,
): { from: number; to: number } | null {
  const first = lane.segments[0];
  if (!first || first.from <= lane.startedAt) return null;
  return { from: lane.startedAt, to: first.from };
}

/**
 * Pushes markers apart so that none overlaps the previous one: a signal and the exit it caused a
 * millisecond later stay two glyphs. Input x positions in drawing order; output in the same order.
 */
export function spreadMarkers(xs: readonly number[], minGap: number): number[] {
  const order = xs.map((x, i) => ({ x, i })).sort((a, b) => a.x - b.x || a.i - b.i);
  const out = new Array<number>(xs.length);
  let last = -Infinity;
  for (const { x, i } of order) {
    const placed = Math.max(x, last + minGap);
    out[i] = placed;
    last = placed;
  }
  return out;
}

/** The CPU % reading in force at time t: the latest sample at or before it; null before the first. */
export function cpuAt(cpu: ReadonlyArray<readonly [number, number]>, t: number): number | null {
  let value: number | null = null;
  for (const [at, percent] of cpu) {
    if (at > t) break;
    value = percent;
  }
  return value;
}

/** A process that lived under this long and did nothing of note folds into "N short-lived processes". */
export const SHORT_LIVED_MS = 1_000;

/**
 * Lanes worth a row of their own first (alive, long-lived, or orphaned, runaway or signalled), in start
 * order; the short-lived rest (a pyenv shim, a wrapper shell) apart, to be folded into one line.
 */
export function foldShortLived(lanes: readonly TimelineLane[]): {
  kept: TimelineLane[];
  folded: TimelineLane[];
} {
  const kept: TimelineLane[] = [];
  const folded: TimelineLane[] = [];
  for (const lane of lanes) {
    const brief = lane.exitedAt !== null && lane.exitedAt - lane.startedAt < SHORT_LIVED_MS;
    const notable =
      lane.segments.some((s) => s.kind !== 'running') ||
      lane.markers.some((m) => m.kind === 'signal' || m.kind === 'reparented' || m.kind === 'left-group');
    (brief && !notable ? folded : kept).push(lane);
  }
  // With a single lane there is nothing to fold it into.
  if (folded.length === 1 && kept.length === 0) return { kept: folded, folded: [] };
  return { kept, folded };
}

function earliest(times: number[]): number | null {
  return times.length === 0 ? null : Math.min(...times);
}

/** One line above the lanes: started by …, orphaned at …, runaway since …, CPU burned …, stopped by … at …. */
export function timelineSummary(timeline: GroupTimeline, now: number): string {
  const lanes = timeline.lanes;
  if (lanes.length === 0) return 'No processes in this range.';
  const first = [...lanes].sort((a, b) => a.startedAt - b.startedAt)[0]!;
  const parts: string[] = [];
  const who = timeline.agent
    ? `${timeline.agent.name}${timeline.agent.pid ? ` (pid ${timeline.agent.pid})` : ''}`
    : 'unknown';
  parts.push(
    `started by ${who} at ${formatClock(first.startedAt)}: ${visibleText(commandThatMatters(first.command))}`,
  );
  const orphanedAt = earliest(
    lanes.flatMap((l) => [
      ...l.segments.filter((s) => s.kind === 'orphaned').map((s) => s.from),
      ...l.markers.filter((m) => m.kind === 'reparented').map((m) => m.at),
    ]),
  );
  // What Corral found already done is said so: the story holds even when Corral looked late.
  if (!lanes.some((l) => l.pid === timeline.pgid))
    parts.push("its tool call's shell had exited before Corral saw the group");
  const sawAdoption = lanes.some((l) => l.markers.some((m) => m.kind === 'reparented'));
  if (orphanedAt !== null)
    parts.push(
      sawAdoption
        ? `orphaned at ${formatClock(orphanedAt)}`
        : `found adopted by PID 1 at ${formatClock(orphanedAt)} (Corral did not see the adoption itself)`,
    );
  const runaway = lanes.flatMap((l) => l.segments.filter((s) => s.kind === 'runaway'));
  const ongoing = runaway.filter((s) => s.to === null);
  if (ongoing.length > 0) parts.push(`runaway since ${formatClock(Math.min(...ongoing.map((s) => s.from)))}`);
  else if (runaway.length > 0)
    parts.push(`was runaway at ${formatClock(Math.min(...runaway.map((s) => s.from)))}`);
  const burned = lanes.reduce((sum, l) => sum + (l.cpuSeconds ?? 0), 0);
  parts.push(`CPU burned ${formatCpuSeconds(burned)}`);
  // The SIGCONT that follows each SIGTERM (so stopped members can act on it) is kernel detail: its
  // marker's tooltip shows it; the story a newcomer reads does not.
  const signals = lanes.flatMap((l) =>
    l.markers.filter((m) => m.kind === 'signal' && !m.label.startsWith('SIGCONT')),
  );
  if (signals.length > 0) {
    const inOrder = [...signals].sort((a, b) => a.at - b.at);
    const first = inOrder[0]!;
    // Each signal once, in the order sent: "SIGTERM → -57 (sent), SIGKILL → -57 (ESRCH)".
    const sent = [...new Set(inOrder.map((m) => m.label))];
    parts.push(`stopped by ${first.by ?? 'a user'} at ${formatClock(first.at)}: ${sent.join(', ')}`);
  } else if (lanes.every((l) => l.exitedAt !== null)) {
    parts.push(`all exited by ${formatClock(Math.max(...lanes.map((l) => l.exitedAt ?? now)))}`);
  }
  return `${parts.join(' · ')}.`;
}
