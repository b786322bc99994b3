import type { AgentRef, LaneMarker } from '../../../../shared/model';
import type { Attribution } from '../../analysis/attribution';
import type { MemoryHogState } from '../../analysis/memory-hog';
import type { LineageEntry } from '../../analysis/lineage-memory';
import type { RunawayState } from '../../analysis/runaway';
import type { ProcessRecord } from '../../model/process-record';
import type { CpuHistory } from './cpu-history';
import type { GroupSpawns } from './group-spawns';

/** One process identity (pid + start) as the monitor follows it through its life. */
export interface TrackedProcess {
  identity: string;
  record: ProcessRecord;
  firstSeenAt: number;
  exitedAt: number | null;
  attribution: Attribution | null;
  lineage: LineageEntry | null;
  cpuPercent: number | null;
  runaway: RunawayState;
  /** [from, to|null] intervals spent runaway. */
  runawaySpans: Array<[number, number | null]>;
  orphanedAt: number | null;
  heldPipe: string | null;
  history: CpuHistory | null;
  markers: LaneMarker[];
  /**
   * Born into a storming group: followed like any process (flags, exits, CPU), but not announced one by
   * one, nor marked on the timeline; the storm's summary counts it (spawn-storm-check.ts).
   */
  summarized?: boolean;
}

/** A process group with at least one agent-attributed member, from first sight until it empties. */
export interface TrackedGroup {
  id: string;
  pgid: number;
  sid: number;
  agent: AgentRef | null;
  startedAt: number;
  endedAt: number | null;
  leaderExitedAt: number | null;
  /** Every process ever seen in the group, or that left it by setsid (timeline lanes). */
  members: Map<string, TrackedProcess>;
  /** Identities currently in the group. */
  live: Set<string>;
  /** MonitorState.pidEpoch when members were last seen in it. */
  liveAtPidEpoch?: number | null;
  /** When a user asked Corral to stop this group. */
  stopRequestedAt: number | null;
  /** When a policy stopped it, and which one (set with stopRequestedAt). */
  stoppedByPolicy?: string;
  /** Signals another command sent and recorded, already on the timeline (requested-stops.ts). */
  importedStops?: Set<string>;
  /** Sustained memory of its members other than an agent's own processes (flag `memory-hog`). */
  memory: MemoryHogState;
  /** Births and live members over time (flag `spawn-storm`); absent until its first birth is counted. */
  spawns?: GroupSpawns;
}

/** Read access to the table, which monitor.ts answers: what views and timelines are built from. */
export interface TrackedTable {
  trackedProcesses(): IterableIterator<TrackedProcess>;
  liveGroup(pgid: number): TrackedGroup | undefined;
  groupById(id: string): TrackedGroup | undefined;
}
