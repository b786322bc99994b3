// A CorralService for transport tests: records calls, emits pushes on demand, and stops groups and
// sessions through the product's one stop path against this machine's processes.
import type { SnapshotPush } from '../../main/core/view-feed/snapshot-deltas';
import { SnapshotPushes } from '../../main/core/view-feed/snapshot-pushes';
import type {
  ConfigProblems,
  KeepGroupRequest,
  KeepGroupResult,
  IncidentListRequest,
  PolicyJournalQuery,
  StopGroupRequest,
  StopSessionRequest,
  StopSessionResult,
} from '../../shared/contract';
import type {
  GroupView,
  Incident,
  MonitorEvent,
  Settings,
  SignalRecord,
  Snapshot,
  TeardownResult,
} from '../../shared/model';
import type { CorralService, SettingsUpdate } from '../../main/core/service';
import { stopAndRecord, type StopRecorder } from '../../main/core/actions/stop-and-record';
import { stopSession } from '../../main/core/actions/stop-session';
import { createSampler } from '../../main/core/sampling/create-sampler';
import type { ProcessSampler } from '../../main/core/sampling/process-sampler';
import type { HooksChangeView, HooksInstallRequest, HooksOverview } from '../../shared/hooks';
import type { HookEndpointView } from '../../shared/hook-endpoint';

export const KNOWN_GROUP_ID = '4242:4242:987654';

export function makeGroup(overrides: Partial<GroupView> = {}): GroupView {
  return {
    id: KNOWN_GROUP_ID,
    pgid: 4242,
    sid: 4242,
    leaderPid: 4242,
    leaderAlive: false,
    agent: { name: 'claude-code', pid: 100 },
    flags: ['orphan'],
    processes: [],
    cpuPercent: 97.5,
    rssBytes: 1024,
    startedAt: Date.parse('2026-01-01T00:00:00Z'),
    containsAgent: false,
    ...overrides,
  };
}

export function defaultSettings(): Settings {
  return {
    pollIntervalMs: 2000,
    runaway: { cpuPercent: 90, windowSeconds: 60 },
    memory: { groupMegabytes: 2048, windowSeconds: 60 },
    policyMode: 'observe',
    policies: [],
    teardown: { graceMs: 3000 },
    notifications: { enabled: true, pausedUntil: null },
    agents: [],
  };
}

export class FakeCorralService implements CorralService {
  readonly calls: Array<{ method: string; args: unknown[] }> = [];
  /** What the one stop path told its recorder (the real service tells its monitor), in order. */
  readonly recorded: Array<{ stopping: string } | { signalled: string; signals: SignalRecord[] }> = [];
  current: Snapshot = { seq: 1, sampledAt: Date.now(), groups: [makeGroup()] };
  private current_settings = defaultSettings();
  private snapshotListeners = new Set<(s: Snapshot) => void>();
  /** The core's one delta computation, as the real services use it. */
  private readonly pushes = new SnapshotPushes();
  private eventListeners = new Set<(e: MonitorEvent) => void>();

  snapshot(): Snapshot {
    this.calls.push({ method: 'snapshot', args: [] });
    return this.pushes.latest ?? this.current;
  }

  async timeline(groupId: string, sinceMs?: number) {
    this.calls.push({ method: 'timeline', args: [groupId, sinceMs] });
    return null;
  }

  /** The product's group stop, as create-service.ts wires it: the one stop path against this machine's processes. */
  async stopGroup(request: StopGroupRequest, onProgress?: (partial: TeardownResult) => void) {
    this.calls.push({ method: 'stopGroup', args: [request] });
    const outcome = await this.withSampler((sampler) =>
      stopAndRecord(
        request,
        this.current.groups,
        { graceMs: this.graceMs(), sampler, onProgress },
        this.recorder,
      ),
    );
    if (outcome.refused !== null) throw new Error(outcome.refused.message);
    return outcome.result;
  }

  /**
   * The product's session stop, as create-service.ts wires it: actions/stop-session.ts over the snapshot,
   * each group through the one stop path (actions/stop-and-record.ts) against this machine's processes.
   */
  async stopSession(
    request: StopSessionRequest,
    onProgress?: (partial: TeardownResult) => void,
  ): Promise<StopSessionResult> {
    this.calls.push({ method: 'stopSession', args: [request] });
    const groups = this.current.groups;
    return this.withSampler((sampler) =>
      stopSession(request, groups, (groupId) =>
        stopAndRecord(
          { groupId, dryRun: request.dryRun },
          groups,
          { graceMs: this.graceMs(), sampler, onProgress },
          this.recorder,
        ),
      ),
    );
  }

  private graceMs(): number {
    return this.current_settings.teardown.graceMs;
  }

  private async withSampler<T>(use: (sampler: ProcessSampler) => Promise<T>): Promise<T> {
    const sampler = createSampler({ markerKeys: new Set() });
    try {
      return await use(sampler);
    } finally {
      sampler.close?.();
    }
  }

  private readonly recorder: StopRecorder = {
    stopping: (group) => this.recorded.push({ stopping: group.id }),
    signalled: (group, fresh) => this.recorded.push({ signalled: group.id, signals: [...fresh] }),
  };

  async keepGroup(request: KeepGroupRequest): Promise<KeepGroupResult> {
    this.calls.push({ method: 'keepGroup', args: [request] });
    const since = Date.now();
    return { groupId: request.groupId, kept: { since, until: since + (request.forMs ?? 0), note: null } };
  }

  async unkeepGroup(groupId: string): Promise<KeepGroupResult> {
    this.calls.push({ method: 'unkeepGroup', args: [groupId] });
    return { groupId, kept: null };
  }

  async incidents(query?: IncidentListRequest): Promise<Incident[]> {
    this.calls.push({ method: 'incidents', args: [query] });
    return [];
  }

  async policyJournal(query: PolicyJournalQuery): Promise<MonitorEvent[]> {
    this.calls.push({ method: 'policyJournal', args: [query] });
    return [];
  }

  async hooksStatus(): Promise<HooksOverview> {
    this.calls.push({ method: 'hooksStatus', args: [] });
    return { agents: [], command: null, commandProblem: '(test)' };
  }

  async installHooks(request: HooksInstallRequest): Promise<HooksChangeView> {
    this.calls.push({ method: 'installHooks', args: [request] });
    return { agent: request.agent, path: '(test)', changed: false, diff: '', backup: null };
  }

  async hookEndpoint(): Promise<HookEndpointView> {
    this.calls.push({ method: 'hookEndpoint', args: [] });
    return { state: 'none', path: '(test)', asking: { client: [], http: [] } };
  }

  async configProblems(): Promise<ConfigProblems> {
    return { path: '(test)', errors: [] };
  }

  settings(): Settings {
    this.calls.push({ method: 'settings', args: [] });
    return this.current_settings;
  }

  async updateSettings(patch: Partial<Settings>): Promise<SettingsUpdate> {
    this.calls.push({ method: 'updateSettings', args: [patch] });
    this.current_settings = { ...this.current_settings, ...patch };
    return { ok: true, settings: this.current_settings };
  }

  onSnapshot(listener: (snapshot: Snapshot) => void) {
    this.snapshotListeners.add(listener);
    return () => this.snapshotListeners.delete(listener) && undefined;
  }

  onSnapshotPush(listener: (push: SnapshotPush) => void) {
    return this.pushes.subscribe(listener);
  }

  onEvent(listener: (event: MonitorEvent) => void) {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener) && undefined;
  }

  listenerCount(): number {
    return this.snapshotListeners.size + this.eventListeners.size + (this.pushes.listened ? 1 : 0);
  }

  emitSnapshot(snapshot: Snapshot): void {
    this.current = snapshot;
    for (const l of this.snapshotListeners) l(snapshot);
    this.pushes.next(snapshot);
  }

  emitEvent(event: MonitorEvent): void {
    for (const l of this.eventListeners) l(event);
  }
}
