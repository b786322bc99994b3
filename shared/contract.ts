// The one contract for everything that crosses a process boundary: Electron IPC (preload <-> main)
// and the `corral serve` WebSocket. Each request channel maps to its request and response types.
import type { HooksChangeView, HooksInstallRequest, HooksOverview } from './hooks';
import type { HookEndpointView } from './hook-endpoint';
import type {
  GroupTimeline,
  GroupView,
  HostInfo,
  Incident,
  IncidentKind,
  KeptMark,
  MonitorEvent,
  Settings,
  Snapshot,
  TeardownResult,
} from './model';

export interface StopGroupRequest {
  groupId: string;
  orphansOnly?: boolean;
  withEscaped?: boolean;
  dryRun?: boolean;
}

/**
 * Stop every leftover group of one agent session (everything but the agent's own group). `groupIds`,
 * when given, are the groups the user confirmed: a group of the session not among them (one that
 * appeared after the confirmation was shown) is left alone, so what is stopped is what was listed.
 */
export interface StopSessionRequest {
  /** A session id as shown in a snapshot, or a prefix of at least 8 characters naming exactly one. */
  sessionId: string;
  groupIds?: string[];
  dryRun?: boolean;
}

/** What happened to one group of a session stop: its teardown, or why it was not stopped. */
export interface SessionGroupOutcome {
  groupId: string;
  /** The teardown, as for `group:stop`; null when the group was refused before any signal. */
  result: TeardownResult | null;
  /** Why nothing was signalled to this group (already gone, PGID reused, not provable); else null. */
  refused: string | null;
}

export interface StopSessionResult {
  sessionId: string;
  /** Set when nothing at all was stopped: no such session, an ambiguous prefix, no leftovers. */
  refused: string | null;
  /** Groups of the session left alone, with why (the agent's own group; one not confirmed). */
  skipped: Array<{ groupId: string; reason: string }>;
  /** One outcome per group stopped, in the order they were stopped. */
  outcomes: SessionGroupOutcome[];
}

/** Keep a group running on purpose (`corral keep`): no notification, no policy stop, no leak count. */
export interface KeepGroupRequest {
  groupId: string;
  /** How long, in ms (default 8 h, at most 30 days). */
  forMs?: number;
  note?: string;
}

/** The keep now in force on the group, or, for `group:unkeep`, null. */
export interface KeepGroupResult {
  groupId: string;
  kept: KeptMark | null;
}

/** What was wrong with the config file when it was read; its bad values fell back to defaults. */
export interface ConfigProblems {
  path: string;
  errors: string[];
}

export interface PolicyJournalQuery {
  /** Entries at or after this time (ms since the epoch). */
  sinceMs?: number;
  /** At most this many, newest first (default 200). */
  limit?: number;
}

/**
 * Which incidents a history asks for, the same for `corral history`, the page, serve's WebSocket and
 * the Electron IPC. Every field given narrows the list; none given is every incident.
 */
export interface IncidentFilter {
  agent?: string;
  /** The agent session's id as recorded (`Incident.session.id`), or its first characters. */
  sessionId?: string;
  /** The session's project, exactly as recorded (`Incident.session.project`). */
  project?: string;
  /** Incidents that had this flag at any time (`Incident.flags`). */
  flag?: IncidentKind;
  /** Incidents still going at or after this time: open, or ended then or later (ms since the epoch). */
  sinceMs?: number;
  /** Incidents that opened at or before this time (ms since the epoch). */
  untilMs?: number;
}

/** A page of a filtered history, newest first: at most `limit` after skipping `offset`. */
export interface IncidentListRequest extends IncidentFilter {
  limit?: number;
  offset?: number;
}

export interface RequestContract {
  'snapshot:get': { request: void; response: Snapshot };
  'timeline:get': { request: { groupId: string; sinceMs?: number }; response: GroupTimeline | null };
  'group:stop': { request: StopGroupRequest; response: TeardownResult };
  'session:stop': { request: StopSessionRequest; response: StopSessionResult };
  'group:keep': { request: KeepGroupRequest; response: KeepGroupResult };
  'group:unkeep': { request: { groupId: string }; response: KeepGroupResult };
  'incidents:list': { request: IncidentListRequest; response: Incident[] };
  'settings:get': { request: void; response: Settings };
  'config:problems': { request: void; response: ConfigProblems };
  /** The stored policy journal (policy-matched, stopped-by-policy), newest first. */
  'policies:journal': { request: PolicyJournalQuery; response: MonitorEvent[] };
  /** Which agents have Corral's hooks, in which file, and which agents Corral has seen. */
  'hooks:status': { request: void; response: HooksOverview };
  /** Installs one agent's hooks (backup first), or with dryRun only shows the diff. */
  'hooks:install': { request: HooksInstallRequest; response: HooksChangeView };
  /** Who answers the agents' hooks on the endpoint's port (as `corral hooks status`), and which hooks ask it. */
  'hooks:endpoint': { request: void; response: HookEndpointView };
  'settings:set': {
    request: Partial<Settings>;
    response: { ok: true; settings: Settings } | { ok: false; errors: string[] };
  };
}

/**
 * What changed between two pushed snapshots: the groups new or changed since `baseSeq`, whole, and the
 * ids of the groups gone. A receiver applies it only on top of the snapshot numbered `baseSeq`; on any
 * other, it asks for the whole picture again (`snapshot:get`). A `snapshot` push always comes first.
 */
export interface SnapshotDelta {
  seq: number;
  baseSeq: number;
  sampledAt: number;
  groups: GroupView[];
  removed: string[];
  host?: HostInfo;
}

export interface PushContract {
  snapshot: Snapshot;
  'snapshot:delta': SnapshotDelta;
  event: MonitorEvent;
  'teardown:progress': TeardownResult;
}

export type RequestChannel = keyof RequestContract;
export type PushChannel = keyof PushContract;
export type RequestOf<C extends RequestChannel> = RequestContract[C]['request'];
export type ResponseOf<C extends RequestChannel> = RequestContract[C]['response'];

export const REQUEST_CHANNELS = [
  'snapshot:get',
  'timeline:get',
  'group:stop',
  'session:stop',
  'group:keep',
  'group:unkeep',
  'incidents:list',
  'settings:get',
  'settings:set',
  'config:problems',
  'policies:journal',
  'hooks:status',
  'hooks:install',
  'hooks:endpoint',
] as const satisfies readonly RequestChannel[];

// Compile-time check: every channel in the contract is listed above, and nothing else.
type Missing = Exclude<RequestChannel, (typeof REQUEST_CHANNELS)[number]>;
const _everyChannelListed: Missing extends never ? true : Missing = true;
void _everyChannelListed;

export const PUSH_CHANNELS = [
  'snapshot',
  'snapshot:delta',
  'event',
  'teardown:progress',
] as const satisfies readonly PushChannel[];

/** What the renderer sees, whichever transport carries it (Electron preload or the serve WebSocket). */
export interface CorralApi {
  request<C extends RequestChannel>(channel: C, payload: RequestOf<C>): Promise<ResponseOf<C>>;
  on<C extends PushChannel>(channel: C, listener: (payload: PushContract[C]) => void): () => void;
}

/** Wire format of the serve WebSocket. */
export type ClientMessage = { kind: 'request'; id: number; channel: string; payload: unknown };
export type ServerMessage =
  | { kind: 'response'; id: number; ok: true; payload: unknown }
  | { kind: 'response'; id: number; ok: false; error: string }
  | { kind: 'push'; channel: PushChannel; payload: unknown };
