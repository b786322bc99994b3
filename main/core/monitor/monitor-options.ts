import type { Incident, Settings } from '../../../shared/model';
import type { AgentMatcher } from '../analysis/agent-matcher';
import type { ProcessSampler } from '../sampling/process-sampler';
import type { FindHeldPipes, HeldPipeLinks } from './checks/held-pipe-check';
import type { StopRequestSource } from './incidents/monitor-inputs';

export interface IncidentSink {
  /** Saves changed incidents in one write; returns false when they could not be made durable. */
  save(incidents: readonly Incident[]): boolean;
}

export interface MonitorOptions {
  sampler: ProcessSampler;
  matcher: AgentMatcher;
  settings: Settings;
  /** Held-pipe lookup (Linux); omitted where the platform has none. */
  findHeldPipes?: FindHeldPipes;
  /** What a found pipe's two descriptors link to now (Linux): a recheck of a pipe still held costs two reads. */
  heldPipeLinks?: HeldPipeLinks;
  incidents?: { restored: readonly Incident[]; sink: IncidentSink };
  /** Stops asked by another command or Corral (a `corral kill`); none when omitted. */
  stopRequests?: StopRequestSource;
  /** Interval of the cheap lineage watch of agents' descendants while they are busy (ms). */
  watchIntervalMs?: number;
  /**
   * Interval of that watch once nothing of an agent's was born or exited for a few seconds (ms): it
   * bounds how late an orphan whose wrapper lived less than one look is seen.
   */
  idleWatchIntervalMs?: number;
  /** A full table sweep every this many polls; the polls between read only new and agents' pids. */
  fullSweepEvery?: number;
  /** How long ended groups stay available for timelines. */
  retainEndedMs?: number;
  now?: () => number;
  onError?: (step: string, err: unknown) => void;
}

/**
 * A full table sweep every this many polls while nobody looks at the whole table (every 5 minutes at
 * the default 1 s poll), and every WATCHED_SWEEP_EVERY polls while a view of every group is open.
 * Exits of processes no agent owns are noticed at the sweeps: only a view of every group shows them,
 * and it asks for sweeps often.
 */
export const DEFAULT_FULL_SWEEP_EVERY = 300;
export const WATCHED_SWEEP_EVERY = 5;
