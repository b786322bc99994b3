// Events the monitor emits, incidents and policy notes as they cross a process boundary.
// Field names here are a public contract: extend, never rename.
import type { AgentRef, SessionRef, SpawnStormFacts, ToolCallRef } from './model';
import type { PolicyAction } from './settings-model';
import type { IncidentKind } from './flags';

export type MonitorEventType =
  | 'group-started'
  | 'group-ended'
  | 'process-started'
  | 'process-exited'
  | 'orphaned'
  | 'runaway'
  | 'runaway-cleared'
  | 'held-pipe'
  | 'incident-opened'
  | 'incident-closed'
  | 'signal-sent'
  | 'memory-hog'
  | 'memory-hog-cleared'
  | 'spawn-storm'
  | 'spawn-storm-cleared'
  | 'spawn-storm-summary'
  | 'policy-matched'
  | 'stopped-by-policy';

export interface MonitorEvent {
  type: MonitorEventType;
  at: number;
  groupId: string;
  pid: number;
  pgid: number;
  sid?: number;
  agent?: AgentRef | null;
  command?: string;
  /** Event-specific details (cpuPercent, ppid, pipe inode, signal, incident id...). */
  detail?: Record<string, string | number | boolean | null>;
  /** The agent session the group came from, where known (see GroupView.session). */
  session?: SessionRef;
  /** The tool call that started the group, where known (see GroupView.toolCall). */
  toolCall?: ToolCallRef;
}

/** The flags that make a leak an incident (shared/flags.ts). */
export type { IncidentKind } from './flags';
/** 'cleared': a runaway (or memory hog) that calmed down by itself. */
export type IncidentEnd = 'exited' | 'stopped-by-user' | 'stopped-by-policy' | 'cleared' | 'open' | 'unknown';

export interface IncidentProcess {
  pid: number;
  startKey: number;
  command: string;
}

/** One stretch of time a flag held; `until` is null while it still holds. */
export interface IncidentSpan {
  from: number;
  until: number | null;
}

/** What happened to one leaked group over the incident's life; each flag is counted within the one incident. */
export interface IncidentPhases {
  /** When a process of the group was orphaned (its parent exited); null if it never was. */
  orphanedAt: number | null;
  /** When the group lost its leader while members lived on; null if it never did. */
  leaderlessAt: number | null;
  runaway: IncidentSpan[];
  heldPipe: IncidentSpan[];
}

/**
 * How a time was established: `observed`, Corral saw the change happen (a reparenting, the leader's
 * exit, CPU turning hot, the last member's exit); `noticed`, it was already so when Corral first
 * looked, and the time is when Corral noticed.
 */
export type IncidentTimeSource = 'observed' | 'noticed';

export interface Incident {
  id: string;
  /** The incident's first flag (kept for compatibility); `flags` lists every flag it had. */
  kind: IncidentKind;
  agent: string | null;
  agentPid: number | null;
  groupId: string;
  pgid: number;
  sid: number;
  processes: IncidentProcess[];
  openedAt: number;
  closedAt: number | null;
  cpuSeconds: number;
  peakRssBytes: number;
  end: IncidentEnd;
  /** Every flag the group had during the incident, in the order they appeared (`kind` is the first). */
  flags: IncidentKind[];
  phases: IncidentPhases;
  /** Whether `openedAt` is when the leak happened (`observed`) or when Corral first saw it (`noticed`). */
  openedAtSource: IncidentTimeSource;
  /** Kernel start time of the oldest process listed: the leak cannot have begun before it. */
  earliestStartAt: number | null;
  /** Whether `closedAt` is when Corral saw the end, or when a restarted Corral found it over. */
  closedAtSource: IncidentTimeSource | null;
  /** What policies made of the group while this incident was open, oldest first (absent: none). */
  policyNotes?: PolicyNote[];
  /** For a spawn storm: the rate, the members and the repeated commands, at their peak (absent: none). */
  spawnStorm?: SpawnStormFacts;
  /**
   * Ports the group was seen listening on while the incident was open, lowest first (absent: none
   * seen, or no view read them): what `corral ps --port` and the UI show as who held a port before.
   */
  ports?: number[];
  /** The agent session the group came from and its project, once provenance told (absent: not known). */
  session?: IncidentSession;
}

/** An incident's agent session, as provenance told it while the incident was open. */
export interface IncidentSession {
  id: string;
  /** Nearest enclosing git work tree of the group's cwd, else that cwd; null when unknown. */
  project: string | null;
  /** The reason the session's SessionEnd hook gave (`other`, `clear`, `logout`, `exit`, …), once it ended. */
  endReason?: string;
}

/** One policy's match on a group, as recorded: `executed` false in observe mode or when refused. */
export interface PolicyNote {
  policy: string;
  action: PolicyAction;
  executed: boolean;
  at: number;
  /** Why a `stop` was not carried out, when it was refused. */
  reason?: string;
}
