import type { ExitWatchCoverage, ProcessSampler } from '../../sampling/process-sampler';
import type { MonitorState } from '../table/monitor-state';

const DEFAULT_WATCH_MS = 100;
/**
 * The busy pace when exits come from the sampler's thread: the watch then only reads the kernel's pid
 * counter (one pread), so it can look often enough to see a tool call's child orphaned by a wrapper that
 * exits at once (which no exit event can announce: it was never followed) within 20 ms. Such an orphan is
 * seen at the first look after its wrapper exited, so detection takes up to one pace plus the look's own
 * time (at 40 ms the bench measured p95 37-46 ms). Only while an agent's processes are born or exit.
 */
const EVENT_DRIVEN_WATCH_MS = 15;
const DEFAULT_IDLE_WATCH_MS = 200;
/**
 * The pace of the watch while every agent marks its tool calls and exits wake a look (polls may then
 * stretch to quietPollIntervalMs): a look at the pid counter, one read, and the new pids read only when it
 * moved. A quiet agent's first tool call whose shell exits before any look is so found within this, not
 * at the next poll 2 s away; its child carries the markers that tie it to its agent. A third of the quiet
 * poll: two looks between polls, since each wake-up, not the read, is what a quiet monitor pays for.
 */
export const QUIET_COUNTER_WATCH_MS = 667;
/**
 * The watch's pace while a group storms: every look reads each pid announced since the last (a fork loop's
 * thousand a second, nearly all gone), so its cost is mostly per look and per pid. Exits of followed
 * processes still wake a look at once; what waits up to this long is an unfollowed newcomer (bench: a
 * storm of ~45,000 births a minute cost `watch` 1.35-1.6 % of a core at 200 ms, 0.95-1.05 % at 500 ms).
 */
export const STORM_WATCH_MS = 500;
/** The watch stays at its fast pace this long after an agent's process was born or exited. */
const BUSY_FOR_MS = 5_000;

export interface WatchPaceInputs {
  sampler: ProcessSampler;
  state: MonitorState;
  /** Whether the sampler waits for exits in a thread of its own. */
  waitsForExits: boolean;
  exitWatch: ExitWatchCoverage;
  watchIntervalMs?: number;
  idleWatchIntervalMs?: number;
}

/**
 * The watch's pace: none while no agent's process is alive (the poll classifies newcomers, an agent
 * among them), fast while agents' processes are being born or exiting, slower once they are quiet.
 * Exits of followed processes wake it at once where the sampler waits for them in a thread. The quiet
 * pace stays even then, unless every agent marks its tool calls: a tool call whose shell exits before
 * any look is seen only through new pids, and a child without markers is tied to its agent only by
 * having seen that shell (left to the 1 s poll, the worker-service test missed it 1 run in 3). When every
 * agent marks them, it only looks at the pid counter every QUIET_COUNTER_WATCH_MS.
 */
export function watchPace(inputs: WatchPaceInputs): number | null {
  const { sampler, state } = inputs;
  if (!sampler.childrenOf && !sampler.newPidsSince && !sampler.exitedWatched) return null;
  if (state.agentPids.size === 0) return null;
  const busy = isBusy(state);
  const eventDriven = isEventDriven(inputs);
  // Without the pid counter (macOS), a watch between polls could only collect exits, which then wake it.
  if (eventDriven && !sampler.newPidsSince) return null;
  const fast = inputs.watchIntervalMs ?? (eventDriven ? EVENT_DRIVEN_WATCH_MS : DEFAULT_WATCH_MS);
  // A storm's births keep agents busy without end: its children are counted at each look, not raced.
  if (busy)
    return state.someGroupStorming()
      ? Math.max(fast, inputs.idleWatchIntervalMs ?? DEFAULT_IDLE_WATCH_MS, STORM_WATCH_MS)
      : fast;
  if (eventDriven && inputs.idleWatchIntervalMs === undefined && state.everyAgentMarksToolCalls())
    return Math.max(fast, QUIET_COUNTER_WATCH_MS);
  return Math.max(fast, inputs.idleWatchIntervalMs ?? DEFAULT_IDLE_WATCH_MS);
}

/**
 * Whether polls may come at the quiet pace (settings' quietPollIntervalMs): agents are alive but none of
 * their processes was born or exited for 5 s, every agent marks its tool calls, exits wake a look at
 * once, and nobody looks at the table. A leftover is then tied to its agent by its markers whenever it
 * is read, and a wrapper that exits wakes the monitor: what waits longer is a quiet agent's first tool
 * call whose wrapper exits before any look, and a new agent's first reading.
 */
export function quietEnoughToStretch(inputs: WatchPaceInputs & { wholeTableWanted: boolean }): boolean {
  const { state } = inputs;
  return (
    !inputs.wholeTableWanted &&
    state.agentPids.size > 0 &&
    isEventDriven(inputs) &&
    inputs.idleWatchIntervalMs === undefined &&
    !isBusy(state) &&
    state.everyAgentMarksToolCalls()
  );
}

function isBusy(state: MonitorState): boolean {
  return performance.now() - state.lastActivityAt < BUSY_FOR_MS;
}

/** Exits wake the monitor only for what the sampler follows: all of it, or the watch keeps polling. */
function isEventDriven(inputs: WatchPaceInputs): boolean {
  return inputs.waitsForExits && inputs.exitWatch === 'all';
}
