// Records that cross a process boundary (CLI JSON, IPC, the serve WebSocket).
// Field names here are a public contract: extend, never rename.
import type { GroupFlag } from './flags';
export type * from './events-model';
export type * from './teardown-model';
export type * from './settings-model';
export type * from './timeline-model';

/** Every built-in agent's name: shared/agents.ts (the one table). */
export { AGENT_NAMES, type BuiltinAgentName } from './agents';

/** Flags on a single process. */
export type ProcessFlag = 'orphan' | 'runaway' | 'held-pipe' | 'escaped';
/**
 * Flags on a whole group. `session-ended`: a member belongs to an agent session that its SessionEnd
 * hook reported as ended (main/core/storage/ended-sessions.ts). `memory-hog`: its memory stayed above
 * `memory.groupMegabytes` for `memory.windowSeconds`. `spawn-storm`: it started more than
 * `spawnStorm.birthsPerMinute` processes a minute (or one command line more than
 * `spawnStorm.repeatsPerMinute` times) for `spawnStorm.windowSeconds`, or its live members kept growing
 * past `spawnStorm.members` (GroupView.spawnStorm says which).
 */
/** Every group flag, in the order a group lists them, with its words: shared/flags.ts (the one table). */
export { GROUP_FLAGS, type GroupFlag } from './flags';

export interface AgentRef {
  /** Lowercase agent name (`claude-code`, `codex`, ...) or a user signature's name. */
  name: string;
  /** PID of the agent's main process, when known. */
  pid: number | null;
  /**
   * The agent's own background service this agent runs under (Claude Code's `claude --bg` service, Codex's
   * `app-server --managed-daemon`), by pid: equal to `pid` for the service's own processes (the service, its
   * workers and spares, role `agent-service`), another pid for a session it runs. Absent otherwise.
   */
  servicePid?: number;
}

/** A process's ids and state as the kernel reported them: the same in a sampler's record and a view. */
export interface ProcessIds {
  pid: number;
  ppid: number;
  pgid: number;
  sid: number;
  uid: number;
  /** Kernel state letter (R, S, D, Z, T, t, X, I). */
  state: string;
}

export interface ProcessView extends ProcessIds {
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
  /**
   * Why this process of an agent's own machinery is left over (flagged `orphan`): an older service beside a
   * newer one, a worker or spare whose service is gone, a worker whose session or spare is gone, an MCP
   * server of an earlier generation while a newer one runs the same server (analysis/mcp-generations.ts).
   */
  serviceLeftover?: string;
}

/**
 * `agent-service`: the agent's own background service, its workers and the sessions it pre-started that
 * no one claimed yet (Claude Code's `daemon run`, `bg-pty-host`, `bg-spare`; Codex's managed daemon):
 * the agent's machinery, neither an agent session nor a leftover (main/core/analysis/agent-services.ts).
 * `background-task`: part of a tool call the agent started in the background on purpose (Claude Code's
 * `run_in_background: true`, Qwen Code's `is_background: true`), while the agent's session lives; once it
 * ends, `tool-call` again. Such a group is no leftover meanwhile (shared/background-task.ts).
 */
export type ProcessRole = 'agent' | 'tool-call' | 'mcp-server' | 'background-task' | 'agent-service' | null;

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
  /** The reason the session's SessionEnd hook gave for its end (`other` for `claude stop`), once it ended. */
  endReason?: string;
  /**
   * What the agent's own session list (`claude agents --json`, `qwen sessions ps --json`) says of it:
   * `running` while it lists the session (with its `name`, `kind`, `status`, `state` as the agent words
   * them), `gone` once a list that named it no longer does (the session ended, `agentAlive: false`).
   * Absent: no list read names it (main/core/agent-sessions/).
   */
  listed?: 'running' | 'gone';
  /** The session's name in the agent's list (Claude Code: its title, else the prompt). */
  name?: string;
  /** Its kind in the agent's list (Claude Code: `background`, `interactive`…; Qwen Code: `tui`, `acp`…). */
  kind?: string;
  /** Its status in the agent's list (Claude Code: `busy`, `idle`). */
  status?: string;
  /** Its state in the agent's list (Claude Code: `working`…). */
  state?: string;
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
  /** The agent asked for it to run in the background (Claude Code's `run_in_background`, Qwen Code's `is_background`). */
  background?: boolean;
  /**
   * What the agent itself last said of it (Claude Code's Stop hook `background_tasks[]`): `running`, a task
   * it keeps running (a background task while its session lives, whatever the call asked); `ended`, a
   * background call its latest list no longer names (what still runs of it is a leftover). Absent: not said.
   */
  agentTask?: 'running' | 'ended';
  /** The agent's id for that task (Claude Code's task id), where its list named the call. */
  agentTaskId?: string;
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
  /** While the group is flagged `spawn-storm`: how fast it starts processes, and what it repeats. */
  spawnStorm?: SpawnStormFacts | null;
}

/**
 * A spawn storm as measured: `birth-rate` (more than the threshold of processes started a minute, for
 * the window), `repeated-command` (one command line started more than its threshold a minute, for the
 * window) or `member-growth` (live members past the threshold and still growing).
 */
export interface SpawnStormFacts {
  reason: 'birth-rate' | 'repeated-command' | 'member-growth';
  /** Processes started a minute now (over the last 10 s or the window, if shorter). */
  birthsPerMinute: number;
  /** How many times a minute the most started command line is started now (same window). */
  repeatsPerMinute: number;
  /** The highest rate while flagged. */
  peakBirthsPerMinute: number;
  /** Live members now, and the most seen while flagged. */
  members: number;
  peakMembers: number;
  /** Processes the group started since Corral first saw it; `unseenBirths` of them exited unread. */
  births: number;
  unseenBirths: number;
  /** The command lines started most often, most first (counts include unseen births, see docs). */
  repeated: Array<{ command: string; count: number }>;
  /** When the storm calmed down (on an incident); absent while it lasts. */
  endedAt?: number;
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
