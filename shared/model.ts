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
/**
 * Flags on a whole group. `session-ended`: a member belongs to an agent session that its SessionEnd
 * hook reported as ended (main/hooks/ended-sessions.ts). `memory-hog`: its memory stayed above
 * `memory.groupMegabytes` for `memory.windowSeconds`.
 */
export type GroupFlag = 'orphan' | 'leaderless' | 'runaway' | 'held-pipe' | 'memory-hog' | 'session-ended';

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
  /** Resident set size; null when the kernel would not tell (another user's process on macOS). */
  rssBytes: number | null;
  /** macOS: physical footprint (proc_pid_rusage ri_phys_footprint), the memory Activity Monitor shows. */
  footprintBytes?: number;
  /**
   * Present (false) when the process's environment could not be read, so agent markers could not count
   * as evidence: on macOS the kernel hides the environment of SIP-protected binaries (/bin/zsh, /bin/sleep)
   * and of other users' processes; attribution then rests on lineage and tool-call command lines.
   */
  environReadable?: false;
  /** Full command line, argv joined with spaces; the executable name when argv is unreadable. */
  command: string;
  flags: ProcessFlag[];
  /** Executable name (comm). */
  name: string;
  argv: string[];
  tty: string | null;
  /** Cumulative CPU time in seconds; null when the kernel would not tell (another user's process on macOS). */
  cpuSeconds: number | null;
  /** The parent Corral saw before reparenting, when it saw one. */
  originalPpid?: number;
  /** When Corral saw this process reparented, ms since epoch. */
  orphanedAt?: number;
  /** PGID/SID of the tool call this process came from, if it left it (setsid). */
  originGroup?: { pgid: number; sid: number };
  /** Whose pipe this process holds open: `pipe:[ino] fd 1 of pid 678 (sleep 5) → read by pid 600 (claude)`. */
  heldPipe?: string;
  /** Working directory; null when unreadable. Filled where provenance is read (agents' processes). */
  cwd?: string | null;
  /** Sockets this process is listening on (TCP listen, unconnected bound UDP); empty when none. */
  ports?: ListeningPort[];
  /** What this process is to its agent: the agent itself, part of a tool call, or an MCP server. */
  role?: ProcessRole;
  /** For an MCP server, its name where the command line tells it (`filesystem`, `playwright`). */
  mcpServer?: string;
}

/**
 * `background-task`: part of a tool call the agent started in the background on purpose (Claude Code's
 * `run_in_background: true`), while the agent's session lives; once it ends, `tool-call` again.
 */
export type ProcessRole = 'agent' | 'tool-call' | 'mcp-server' | 'background-task' | null;

export interface ListeningPort {
  protocol: 'tcp' | 'tcp6' | 'udp' | 'udp6';
  /** Local address as text: `127.0.0.1`, `0.0.0.0`, `::`, `::1`. */
  address: string;
  port: number;
}

/** The agent session a group came from. */
export interface SessionRef {
  id: string;
  /** Where the id was found: the processes' environment, Corral's lineage memory, or a transcript. */
  source: 'env' | 'lineage' | 'transcript';
  /** Nearest enclosing git work tree of the group's cwd, else that cwd; null when unknown. */
  project: string | null;
  /**
   * The session's agent process is alive now (true); it exited (false: the agent it is known to run in
   * is gone, or no agent of its kind runs); or not known (null: no live process ties the session to its
   * agent, and an agent of its kind runs, which may be the one). "Ended" is never claimed on a guess.
   */
  agentAlive: boolean | null;
}

/** The agent's tool call that started a group, from the agent's own transcript or environment. */
export interface ToolCallRef {
  /** The agent's id for the call (`toolu_…`, Codex `call_…`), null when unknown. */
  id: string | null;
  command: string;
  /** What the agent wrote the call was for ("Start the dev server"), null when unknown. */
  description: string | null;
  /** When the agent issued the call, ms since epoch. */
  startedAt: number;
  /** The agent asked for it to run in the background (Claude Code's `run_in_background: true`). */
  background?: boolean;
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
  /** Sum of the members' resident sizes that are known. */
  rssBytes: number;
  /** Earliest start among live members, ms since epoch. */
  startedAt: number;
  /** The group contains the agent's own process (stop it with orphans-only). */
  containsAgent: boolean;
  /** The agent session this group came from; null when none is known. */
  session?: SessionRef | null;
  /** The tool call that started this group; null when unknown. */
  toolCall?: ToolCallRef | null;
  /** Union of the members' listening sockets. */
  ports?: ListeningPort[];
  /**
   * The user asked to keep this group running (`corral keep`, "Keep running"): its flags stay, but it
   * raises no notification, matches no policy `stop` and is not counted as a leak. null when not kept.
   */
  kept?: KeptMark | null;
}

/** A keep in force on a group: until when, and the user's note. */
export interface KeptMark {
  /** When the keep expires, ms since epoch. */
  until: number;
  /** When the user kept the group, ms since epoch. */
  since: number;
  note: string | null;
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
  | 'signal-sent'
  | 'memory-hog'
  | 'memory-hog-cleared'
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

export type IncidentKind = 'orphan' | 'runaway' | 'held-pipe' | 'leaderless' | 'memory-hog';
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
  /** Environment variables holding the agent's session id, first present wins. */
  sessionEnv?: string[];
  /** Environment variable holding the id of the tool call a process came from (Codex). */
  toolCallEnv?: string;
}

/** What a policy rule looks at; every field given must hold. */
export interface PolicyMatch {
  /** Agent names (any of them). */
  agents?: string[];
  /** Group flags (all of them). */
  flags?: string[];
  minAgeSeconds?: number;
  minCpuSeconds?: number;
  minMemoryMegabytes?: number;
  /** The session that started the group has ended (a hook said so, or its agent is gone). */
  sessionEnded?: boolean;
  /** Regular expressions, any of which matches any member's command line. */
  commandPatterns?: string[];
  /** Ports, any of which a member listens on. */
  ports?: number[];
}

export type PolicyAction = 'notify' | 'stop';

export interface PolicyRule {
  name: string;
  match: PolicyMatch;
  action: PolicyAction;
  /** Grace between SIGTERM and SIGKILL for this rule's stops (default: teardown.graceMs). */
  graceMs?: number;
  /** false keeps the rule in the file without applying it (default true). */
  enabled?: boolean;
}

/** observe: record what rules would do, never signal. enforce: act. */
export type PolicyMode = 'observe' | 'enforce';

export interface Settings {
  pollIntervalMs: number;
  runaway: { cpuPercent: number; windowSeconds: number };
  memory: { groupMegabytes: number; windowSeconds: number };
  policyMode: PolicyMode;
  policies: PolicyRule[];
  teardown: { graceMs: number };
  notifications: { enabled: boolean; pausedUntil: number | null };
  agents: AgentSignatureConfig[];
  /** Where provenance may be read from. Absent means the defaults (everything on). */
  provenance?: { transcripts: boolean };
  /** The desktop app's own updates (signed, packaged builds only). Absent means on. */
  updates?: { enabled: boolean };
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
