// Records that cross a process boundary (CLI JSON, IPC, the serve WebSocket).
// Field names here are a public contract: extend, never rename.

export const AGENT_NAMES = [
  'claude-code',
  'codex',
  'gemini-cli',
  'cursor-agent',
  'aider',
  'opencode',
  'qwen-code',
  'copilot',
  'goose',
  'amp',
] as const;
export type BuiltinAgentName = (typeof AGENT_NAMES)[number];

/** Flags on a single process. */
export type ProcessFlag = 'orphan' | 'runaway' | 'held-pipe' | 'escaped';
/** Flags on a whole group. */
export type GroupFlag = 'orphan' | 'leaderless' | 'runaway' | 'held-pipe';

export interface AgentRef {
  /** Lowercase agent name (`claude-code`, `codex`, ...) or a user signature's name. */
  name: string;
  /** PID of the agent's main process, when known. */
  pid: number | null;
}

export interface ProcessView {
  pid: number;
  ppid: number;
  pgid: number;
  sid: number;
  uid: number;
  /** Kernel state letter: R S D Z T t X I. */
  state: string;
  /** Absolute start time, ms since epoch. */
  startedAt: number;
  /** Platform start stamp; with the pid it identifies this process for its whole life. */
  startKey: number;
  /** Percent of one core over the last interval; null until two readings exist. */
  cpuPercent: number | null;
  rssBytes: number;
  /** Full command line, argv joined with spaces; the executable name when argv is unreadable. */
  command: string;
  flags: ProcessFlag[];
  /** Executable name (comm). */
  name: string;
  argv: string[];
  tty: string | null;
  /** Cumulative CPU time in seconds. */
  cpuSeconds: number;
  /** The parent Corral saw before reparenting, when it saw one. */
  originalPpid?: number;
  /** When Corral saw this process reparented, ms since epoch. */
  orphanedAt?: number;
  /** PGID/SID of the tool call this process came from, if it left it (setsid). */
  originGroup?: { pgid: number; sid: number };
  /** Whose pipe this process holds open: `pipe:[ino] fd 1 of pid 678 (sleep 5) → read by pid 600 (claude)`. */
  heldPipe?: string;
}

export interface GroupView {
  /** Stable id: `<pgid>:<anchorPid>:<anchorStartKey>`. Use it with `corral kill`. */
  id: string;
  pgid: number;
  sid: number;
  leaderPid: number;
  leaderAlive: boolean;
  agent: AgentRef | null;
  flags: GroupFlag[];
  processes: ProcessView[];
  /** Sum of members' CPU percent (null when none is known yet). */
  cpuPercent: number | null;
  rssBytes: number;
  /** Earliest start among live members, ms since epoch. */
  startedAt: number;
  /** The group contains the agent's own process (stop it with orphans-only). */
  containsAgent: boolean;
}

export interface HostInfo {
  hostname: string;
  platform: string;
  cpuCount: number;
  loadAverage: [number, number, number];
  totalMemBytes: number;
  /** Memory available to new work (what systeminformation calls available). */
  freeMemBytes: number;
  /** Host CPU load, percent of all cores, over the last interval. */
  cpuLoadPercent?: number;
  /** Operating system, e.g. "Debian GNU/Linux 12". */
  os?: string;
}

export interface Snapshot {
  /** Monotonic sequence number; receivers drop anything older than what they have. */
  seq: number;
  sampledAt: number;
  groups: GroupView[];
  host?: HostInfo;
}

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
  | 'signal-sent';

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
}

export type IncidentKind = 'orphan' | 'runaway' | 'held-pipe' | 'leaderless';
/** 'cleared': a runaway that calmed down by itself. */
export type IncidentEnd = 'exited' | 'stopped-by-user' | 'cleared' | 'open' | 'unknown';

export interface IncidentProcess {
  pid: number;
  startKey: number;
  command: string;
}

export interface Incident {
  id: string;
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
}

export type TeardownOutcomeKind =
  | 'exited-after-term'
  | 'killed'
  | 'already-gone'
  | 'not-permitted'
  | 'still-alive'
  | 'escaped-group'
  | 'skipped';

export interface TeardownProcessOutcome {
  pid: number;
  startKey: number;
  command: string;
  outcome: TeardownOutcomeKind;
  /** Which signal ended it, when Corral knows. */
  endedBy?: 'SIGTERM' | 'SIGKILL';
  /** Owner (uid and name) when the signal was not permitted. */
  owner?: { uid: number; user: string | null };
  state?: string;
  /** ms after teardown began that the process was seen gone. */
  goneAfterMs?: number;
  reason?: string;
}

export interface SignalRecord {
  /** SIGCONT follows SIGTERM so that stopped members can act on it. */
  signal: 'SIGTERM' | 'SIGKILL' | 'SIGCONT';
  target: string;
  at: number;
  result: 'sent' | 'ESRCH' | 'EPERM' | 'error';
}

export interface TeardownResult {
  groupId: string;
  pgid: number;
  mode: 'group' | 'orphans-only';
  dryRun: boolean;
  refused: string | null;
  startedAt: number;
  finishedAt: number;
  signals: SignalRecord[];
  processes: TeardownProcessOutcome[];
  /** True when every targeted process is gone. */
  clean: boolean;
}

export interface AgentSignatureConfig {
  name: string;
  /** Executable names (comm) of the agent's main process. */
  comm?: string[];
  /** Regular expressions matched against the full command line of the agent's main process. */
  commandPatterns?: string[];
  /** Environment variables whose presence marks a tool-call descendant. */
  envMarkers?: string[];
  /** Environment variable holding the agent's main PID, if the agent sets one. */
  pidEnv?: string;
  /** Regular expressions that mark a tool-call shell's command line. */
  toolCallPatterns?: string[];
}

export interface Settings {
  pollIntervalMs: number;
  runaway: { cpuPercent: number; windowSeconds: number };
  teardown: { graceMs: number };
  notifications: { enabled: boolean; pausedUntil: number | null };
  agents: AgentSignatureConfig[];
}

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
  cpuSeconds: number;
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
