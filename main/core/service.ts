import type { HooksChangeView, HooksInstallRequest, HooksOverview } from '../../shared/hooks';
import type { HookEndpointView } from '../../shared/hook-endpoint';
import type {
  ConfigProblems,
  IncidentListRequest,
  KeepGroupRequest,
  KeepGroupResult,
  PolicyJournalQuery,
  StopGroupRequest,
  StopSessionRequest,
  StopSessionResult,
} from '../../shared/contract';
import type {
  GroupTimeline,
  Incident,
  MonitorEvent,
  Settings,
  Snapshot,
  TeardownResult,
} from '../../shared/model';
import type { SnapshotPush } from './view-feed/snapshot-deltas';

export type { SnapshotPush };

export type SettingsUpdate = { ok: true; settings: Settings } | { ok: false; errors: string[] };

/**
 * What every front end (Electron IPC, the serve WebSocket, the CLI) asks of the running core.
 * Transports adapt this to shared/contract.ts; none of them reaches past it. The core may run in a
 * worker thread: `snapshot()` and `settings()` answer from the latest state pushed to this thread,
 * everything else is asynchronous.
 */
export interface CorralService {
  snapshot(): Snapshot;
  timeline(groupId: string, sinceMs?: number): Promise<GroupTimeline | null>;
  /** Stops a group the service itself reported, by its id; never by a raw PID or PGID. */
  stopGroup(
    request: StopGroupRequest,
    onProgress?: (partial: TeardownResult) => void,
  ): Promise<TeardownResult>;
  /**
   * Stops every leftover group of one agent session except the agent's own, each through the same
   * stop path as `stopGroup`, with one outcome per group.
   */
  stopSession(
    request: StopSessionRequest,
    onProgress?: (partial: TeardownResult) => void,
  ): Promise<StopSessionResult>;
  /** Keeps a group the service reported running on purpose (stored beside the incidents, expires). */
  keepGroup(request: KeepGroupRequest): Promise<KeepGroupResult>;
  /** Ends the keeps of a group (by its id, live or gone). */
  unkeepGroup(groupId: string): Promise<KeepGroupResult>;
  /** The history, newest first, filtered and paged (default: the 200 newest). */
  incidents(query?: IncidentListRequest): Promise<Incident[]>;
  settings(): Settings;
  /** The config file's problems as last read (empty once settings were saved over it). */
  configProblems(): Promise<ConfigProblems>;
  updateSettings(patch: Partial<Settings>): Promise<SettingsUpdate>;
  /** What policies matched and did, as stored (it survives restarts), newest first. */
  policyJournal(query: PolicyJournalQuery): Promise<MonitorEvent[]>;
  /** Each agent's hook status (settings file, events), and whether Corral has seen the agent. */
  hooksStatus(): Promise<HooksOverview>;
  /** Installs one agent's hooks only when `dryRun` is false; otherwise says what would change. */
  installHooks(request: HooksInstallRequest): Promise<HooksChangeView>;
  /** Who answers hooks on the endpoint file's port (probed as a hook would ask), and which hooks ask it. */
  hookEndpoint(): Promise<HookEndpointView>;
  onSnapshot(listener: (snapshot: Snapshot) => void): () => void;
  /**
   * The same snapshots as a transport sends them: the first whole, then only what changed, or
   * `unchanged` (core/view-feed/snapshot-pushes.ts, computed once for every listener). While anyone
   * listens, `snapshot()` answers with the snapshot the deltas chain on.
   */
  onSnapshotPush(listener: (push: SnapshotPush) => void): () => void;
  onEvent(listener: (event: MonitorEvent) => void): () => void;
}
