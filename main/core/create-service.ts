import { homedir } from 'node:os';
import type { StopGroupRequest, StopSessionRequest, StopSessionResult } from '../../shared/contract';
import type { MonitorEvent, Settings, Snapshot, TeardownResult } from '../../shared/model';
import { HostInfoSource, type HostFacts } from './host/host-info';
import { loadConfig, type LoadedConfig } from './config/load-config';
import { saveSettings } from './config/save-settings';
import { validateSettings } from './config/validate-settings';
import { stopAndRecord, type StopOutcome } from './actions/stop-and-record';
import { stopSession } from './actions/stop-session';
import { Monitor } from './monitor/monitor';
import { keepRequests } from './keep-requests';
import { GroupContext } from './provenance/group-context';
import { PolicyEngine } from './policies/policy-engine';
import { groupTimeline, snapshotGroups } from './monitor/views/monitor-views';
import { createSampler } from './sampling/create-sampler';
import { PidCounterFeed } from './sampling/pid-counter-feed';
import { ViewFeed } from './view-feed/view-feed';
import type { CorralService, SettingsUpdate } from './service';
import { matcherFor } from './analysis/signatures';
import { resolveDataDir } from './storage/data-dir';
import {
  hookEndpointView,
  hooksOverview,
  installAgentHooks,
  resolveHookCommand,
  type HookCommandResolution,
} from './hooks-setup/hooks-service';
import type { HooksPlace } from './hooks-setup/hooks-setup';
import { DecorationFiles } from './storage/decoration-files';
import { IncidentStore } from './storage/incident-store';
import { StopRequestInbox } from './storage/stop-requests';
import { monitorRecorder, policyStop } from './stop-recorders';
import { AgentSessionLists } from './agent-sessions/agent-session-lists';

export interface CorralServiceOptions {
  config?: LoadedConfig;
  /** Where incidents are kept; default from CORRAL_DATA_DIR or the per-user data directory. */
  dataDir?: string;
  watchIntervalMs?: number;
  fullSweepEvery?: number;
  /** Write changed settings to the config file (default true). */
  persistSettings?: boolean;
  /** Sweep the whole table more often while snapshots are subscribed (default true). */
  wholeTableWhenWatched?: boolean;
  onError?: (step: string, err: unknown) => void;
  /**
   * Where agents' settings files are (default: this process's environment and home) and the command
   * the hooks run (default: resolveHookCommand); a seam for tests.
   */
  hooks?: { place?: HooksPlace; command?: HookCommandResolution };
  /** Host facts for snapshots (default: read from the system); a seam for tests and the bench. */
  host?: HostFacts;
}

export interface RunningService {
  service: CorralService;
  monitor: Monitor;
  store: IncidentStore;
  /** The data directory the service keeps its files in (incidents, hooks' records, the hook endpoint). */
  dataDir: string;
  /**
   * The kernel's pid counter as the monitor read it (Linux), for a hook server in this thread: where
   * its walk for a tool call's processes may stop (main/hooks/pid-counter-readings.ts).
   */
  pidCounter: PidCounterFeed;
  /** What a hook server in this thread asks of the monitor: the pid counter, and the ids it gave groups. */
  hookWiring: {
    monitorReadings: PidCounterFeed;
    knownGroupId: (pgid: number, members: readonly { pid: number; startKey: number }[]) => string | null;
  };
  /** The one feed of views the front ends' pushes come from: all groups, or agents' only. */
  feed: ViewFeed;
  /** Agents' groups only, without host facts or provenance reads (ViewFeed.agentsSnapshot). */
  agentsSnapshot(): Snapshot;
  stop(): Promise<void>;
}

/** The running core: monitor, incident store and teardown behind the CorralService interface. */
export function createCorralService(options: CorralServiceOptions = {}): RunningService {
  const config = options.config ?? loadConfig();
  let settings: Settings = config.settings;
  let configErrors = [...config.errors];
  let matcher = matcherFor(settings);
  // One set the sampler keeps reading from, so signatures added later are read from new processes.
  const markerKeys = new Set(matcher.markerKeys);
  // The pid counter as the monitor reads it each poll, for the hook server beside it (service-hooks.ts).
  const pidCounter = new PidCounterFeed();
  const sampler = createSampler({ markerKeys, onPidCounter: (lastPid) => pidCounter.note(lastPid) });
  const dataDir = options.dataDir ?? resolveDataDir(process.env, process.platform, homedir());
  // Stops asked by `corral kill` in this data directory, read while this service records its incidents.
  const stopRequests = new StopRequestInbox();
  const store = IncidentStore.open(dataDir, { stopRequests });
  const monitor = new Monitor({
    sampler,
    matcher,
    settings,
    findHeldPipes: sampler.findHeldPipes?.bind(sampler),
    heldPipeLinks: sampler.heldPipeLinks?.bind(sampler),
    incidents: { restored: store.openIncidents(), sink: { save: (batch) => store.upsert(batch) } },
    stopRequests: stopRequests.requestsFor,
    watchIntervalMs: options.watchIntervalMs,
    fullSweepEvery: options.fullSweepEvery,
    onError: options.onError,
  });

  const context = new GroupContext({
    processes: () => monitor.trackedProcesses(),
    agentViews: () => snapshotGroups(monitor),
    sampler,
    matcher: () => matcher,
    settings: () => settings,
    files: new DecorationFiles(dataDir),
    report: (message) => options.onError?.('provenance', message),
    sessionLists: new AgentSessionLists({
      report: (message) => options.onError?.('agent-sessions', message),
    }),
  });
  const feed = new ViewFeed({
    monitor,
    context,
    host: options.host ?? new HostInfoSource(),
    wholeTableWhenWatched: options.wholeTableWhenWatched !== false,
  });

  const rememberedMembers = (groupId: string) =>
    [...(monitor.groupById(groupId)?.members.values() ?? [])].map((m) => m.record);

  /** One group through the one stop path, asked by the user; each signal is noted for the monitor. */
  const stopNoted = (
    request: StopGroupRequest,
    onProgress?: (partial: TeardownResult) => void,
  ): Promise<StopOutcome> =>
    stopAndRecord(
      request,
      snapshotGroups(monitor, { all: true }),
      {
        remembered: rememberedMembers(request.groupId),
        graceMs: settings.teardown.graceMs,
        sampler,
        onProgress,
      },
      monitorRecorder(monitor),
    );

  const stop = async (
    request: StopGroupRequest,
    onProgress?: (partial: TeardownResult) => void,
  ): Promise<TeardownResult> => {
    const outcome = await stopNoted(request, onProgress);
    if (outcome.refused !== null) throw new Error(outcome.refused.message);
    return outcome.result;
  };

  // Sessions are provenance: resolved on decorated views, then each group goes the one stop path.
  const stopSessionGroups = (
    request: StopSessionRequest,
    onProgress?: (partial: TeardownResult) => void,
  ): Promise<StopSessionResult> =>
    stopSession(
      request,
      context.decorate(snapshotGroups(monitor, { all: true })),
      (groupId) => stopNoted({ groupId, dryRun: request.dryRun }, onProgress),
      rememberedMembers,
    );

  const policies = new PolicyEngine({
    settings: () => settings,
    // Provenance (sessions, ports) only when a rule may ask for it: it costs a read per agent process.
    groups: () => {
      const groups = snapshotGroups(monitor, { all: true });
      return settings.policies.length > 0 ? context.decorate(groups) : groups;
    },
    stop: async (group, rule) =>
      policyStop(monitor, snapshotGroups(monitor, { all: true }), group, rule, {
        graceMs: rule.graceMs ?? settings.teardown.graceMs,
        sampler,
      }),
    // Stored first: an entry the journal already holds (seen before a restart) is not delivered again.
    record: (event) => {
      if (store.addJournal([event]).length > 0) monitor.policies.record(event);
    },
    alreadyRecorded: (groupId, policy) =>
      monitor.policies.noted(groupId, policy) || store.journalHas(groupId, policy),
    onError: options.onError,
  });
  monitor.onPoll((now) => policies.afterPoll(now));

  const hooksPlace = (): HooksPlace => options.hooks?.place ?? { env: process.env, home: homedir() };
  // Resolved on each request: the user may install the CLI while Corral runs.
  const hookCommand = (): HookCommandResolution => options.hooks?.command ?? resolveHookCommand(process.env);
  // Agents running now, and those in the incident history (seen before a restart).
  const seenAgents = (): Set<string> => {
    const seen = new Set<string>();
    for (const g of snapshotGroups(monitor, { all: true })) if (g.agent) seen.add(g.agent.name);
    for (const i of store.list({ limit: 1_000 })) if (i.agent) seen.add(i.agent);
    return seen;
  };

  const keeps = keepRequests({
    dataDir,
    groups: () => snapshotGroups(monitor, { all: true }),
    changed: () => {
      context.keepsChanged();
      feed.changed();
    },
  });

  monitor.onEvent((event) => {
    const ended = event.type === 'group-ended' ? monitor.groupById(event.groupId) : undefined;
    if (!ended) return;
    const processes = [...ended.members.values()].map((m) => m.record);
    keeps.groupEnded({ id: ended.id, pgid: ended.pgid, processes });
  });

  const service: CorralService = {
    snapshot: () => feed.all(),
    keepGroup: keeps.keepGroup,
    unkeepGroup: keeps.unkeepGroup,
    timeline: async (groupId, sinceMs) => {
      // A `corral kill` in another process recorded the signals it sent: they belong on this timeline.
      monitor.importRequestedStops(groupId);
      return groupTimeline(monitor, groupId, sinceMs);
    },
    stopGroup: stop,
    stopSession: stopSessionGroups,
    incidents: async (query = {}) => store.list({ ...query, limit: query.limit ?? 200 }),
    settings: () => settings,
    policyJournal: async (query) => store.journal(query),
    hooksStatus: async () => hooksOverview(hooksPlace(), seenAgents(), hookCommand()),
    installHooks: async (request) => installAgentHooks(request, hooksPlace(), hookCommand()),
    hookEndpoint: () => hookEndpointView(dataDir, hooksPlace()),
    configProblems: async () => ({ path: config.path, errors: configErrors }),
    updateSettings: async (patch): Promise<SettingsUpdate> => {
      const { settings: next, errors } = validateSettings({ ...settings, ...patch });
      if (errors.length > 0) return { ok: false, errors };
      if (options.persistSettings !== false) {
        try {
          saveSettings(config.path, next);
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code ?? String(err);
          return {
            ok: false,
            errors: [`${config.path}: could not save the settings (${code}); nothing changed`],
          };
        }
      }
      settings = next;
      // The file now holds what was just validated.
      if (options.persistSettings !== false) configErrors = [];
      matcher = matcherFor(next);
      for (const key of matcher.markerKeys) markerKeys.add(key);
      monitor.updateSettings(next, matcher);
      return { ok: true, settings };
    },
    onSnapshot: (listener) => feed.subscribe(listener),
    onSnapshotPush: (listener) => feed.subscribePushes(listener),
    onEvent: (listener: (event: MonitorEvent) => void) =>
      monitor.onEvent((event) => listener(context.decorateEvent(event))),
  };
  // Started on the next turn, so that whoever created the service has subscribed before the first poll.
  const starting = setImmediate(() => monitor.start());
  return {
    service,
    monitor,
    store,
    dataDir,
    pidCounter,
    hookWiring: {
      monitorReadings: pidCounter,
      knownGroupId: (pgid, members) => monitor.knownGroupId(pgid, members),
    },
    feed,
    agentsSnapshot: () => feed.agentsSnapshot(),
    stop: async () => {
      clearImmediate(starting);
      monitor.stop();
      sampler.close?.();
      store.close();
    },
  };
}
