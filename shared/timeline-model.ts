// A group's timeline: one lane per process.
// Field names here are a public contract: extend, never rename.
import type { AgentRef } from './model';

/** What happened to one process over time: one lane of a group's timeline. */
export interface LaneSegment {
  from: number;
  /** null while the segment is still going on. */
  to: number | null;
  kind: 'running' | 'orphaned' | 'runaway';
}

export interface LaneMarker {
  at: number;
  kind: 'started' | 'exited' | 'reparented' | 'leader-exited' | 'signal' | 'left-group';
  label: string;
  /** For a signal: who sent it ("you, in Corral", "corral kill (pid 4242)", "policy night-watch"). */
  by?: string;
}

export interface TimelineLane {
  pid: number;
  startKey: number;
  ppid: number;
  pgid: number;
  sid: number;
  command: string;
  startedAt: number;
  exitedAt: number | null;
  /** The process left the group (setsid) but belongs to it by lineage. */
  leftGroup: boolean;
  /** Null when the kernel would not tell (another user's process on macOS). */
  cpuSeconds: number | null;
  segments: LaneSegment[];
  /** [time ms, cpu percent] pairs, oldest first, downsampled for long ranges. */
  cpu: Array<[number, number]>;
  markers: LaneMarker[];
}

export interface GroupTimeline {
  groupId: string;
  pgid: number;
  sid: number;
  agent: AgentRef | null;
  from: number;
  to: number;
  lanes: TimelineLane[];
}
