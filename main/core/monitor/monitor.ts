import type { Incident, MonitorEvent, Settings } from '../../../shared/model';
import type { AgentMatcher } from '../analysis/agent-matcher';
import { recordedGroupId } from '../analysis/recorded-group-ids';
import { GroupTracker } from './table/group-tracker';
import { importRequestedStops } from './incidents/requested-stops';
import { HeldPipeCheck } from './checks/held-pipe-check';
import { IncidentGlue } from './incidents/incident-glue';
import { MemoryCheck } from './checks/memory-check';
import { MonitorListeners } from './monitor-listeners';
import { MonitorSchedule } from './schedule/monitor-schedule';
import { DEFAULT_FULL_SWEEP_EVERY, WATCHED_SWEEP_EVERY, type MonitorOptions } from './monitor-options';
import { MonitorState } from './table/monitor-state';
import { readWithMissedParents } from './table/missed-parents';
import { PolicyGlue } from './incidents/policy-glue';
import { IncidentPortGlue } from './incidents/incident-port-glue';
import { PidWatch } from './schedule/pid-watch';
import { SpawnBirths } from './checks/spawn-births';
import { SpawnStormCheck } from './checks/spawn-storm-check';
import { ProcessTable } from './table/process-table';
import { ReadFailureNote } from './read-failure-note';
import { ProcReadFailed } from '../sampling/read-failure';
import { noteSignalOn } from './incidents/signal-notes';
import type { TrackedGroup, TrackedProcess, TrackedTable } from './table/tracked';
import { VersionGate } from './schedule/version-gate';

export type { IncidentSink, MonitorOptions } from './monitor-options';
export { DEFAULT_FULL_SWEEP_EVERY } from './monitor-options';

/**
 * The watch loop: samples on a schedule, diffs each sample against what it knew, and emits typed
 * events. Agents' descendants are followed closely (their parents' child lists several times a second);
 * new pids are read once to classify them; the whole table is swept at a slower pace. The process
 * table, group tracker, held-pipe check and incident glue do the work; this class decides when, and
 * delivers what they found.
 */
export class Monitor implements TrackedTable {
  private readonly state = new MonitorState();
  private readonly table: ProcessTable;
  private readonly groupTracker: GroupTracker;
  private readonly incidents: IncidentGlue;
  private readonly heldPipes: HeldPipeCheck | null;
  private readonly memory: MemoryCheck;
  private readonly births = new SpawnBirths(this.state);
  private readonly spawnStorms: SpawnStormCheck;
  /** Policies' events, incident notes and stops (see policy-glue). */
  readonly policies: PolicyGlue;
  /** Decorated views' ports and sessions, noted on their incidents (see incident-port-glue). */
  readonly incidentPorts: IncidentPortGlue;
  private readonly listeners = new MonitorListeners((step, run) => this.guard(step, run));
  private readonly pidWatch: PidWatch;
  private settings: Settings;
  private matcher: AgentMatcher;
  private wholeTableWanted = false;
  private readonly schedule: MonitorSchedule;
  /** Polls' worth of time left until the next whole-table sweep (a stretched poll counts for more). */
  private sweepCredit = 0;
  private stalls = 0;
  private restoredChecked = false;
  readonly errors = { count: 0, last: null as string | null };
  storageProblem: string | null = null;
  /** Looks that could not read processes for want of descriptors, said once (see read-failure-note). */
  private readonly readFailures: ReadFailureNote;
  private version = 0;
  /** The memory check and the incidents run again only when what they read may have moved (see ingest). */
  private readonly memoryGate = new VersionGate();
  private readonly incidentsGate = new VersionGate();
  private sweeps = 0;

  constructor(private readonly options: MonitorOptions) {
    this.settings = options.settings;
    this.matcher = options.matcher;
    this.table = new ProcessTable(this.state, {
      settings: () => this.settings,
      matcher: () => this.matcher,
      baseMs: this.now(),
    });
    this.incidents = new IncidentGlue(this.state, options.incidents?.restored ?? [], options.stopRequests);
    this.groupTracker = new GroupTracker(this.state, this.incidents, options.retainEndedMs);
    this.heldPipes = options.findHeldPipes
      ? new HeldPipeCheck(this.state, options.findHeldPipes, options.heldPipeLinks)
      : null;
    this.memory = new MemoryCheck(this.state, () => this.settings.memory);
    this.spawnStorms = new SpawnStormCheck(this.state, this.incidents, () => this.settings);
    this.policies = new PolicyGlue(this.state, this.incidents, () => this.flush());
    this.incidentPorts = new IncidentPortGlue(this.incidents, () => this.flush());
    this.readFailures = new ReadFailureNote((message) => options.onError?.('sampling', message));
    this.pidWatch = new PidWatch(options.sampler, this.state);
    this.pidWatch.onNewPids = (pids) => this.births.announce(pids);
    const { sampler, watchIntervalMs, idleWatchIntervalMs } = options;
    this.schedule = new MonitorSchedule(
      {
        poll: () => this.guard('poll', () => this.pollOnce()),
        watch: () => this.guard('watch', () => this.watch()),
        stalled: () => {
          this.stalls++;
          this.rebaseline();
        },
        settings: () => this.settings,
        wholeTableWanted: () => this.wholeTableWanted,
        paceInputs: () => {
          const { exitWatch } = this.pidWatch;
          return { sampler, state: this.state, exitWatch, watchIntervalMs, idleWatchIntervalMs };
        },
      },
      sampler.waitForExits?.bind(sampler),
    );
  }

  private now(): number {
    return this.options.now ? this.options.now() : Date.now();
  }

  onEvent(listener: (event: MonitorEvent) => void): () => void {
    return this.listeners.onEvent(listener);
  }

  /**
   * Called at the end of every poll, and of each watch (or noted signal) that read or recorded something;
   * `hadEvents` says whether it delivered events (a flag came or went): viewers between polls refresh then.
   */
  onTick(listener: (hadEvents: boolean) => void): () => void {
    return this.listeners.onTick(listener);
  }

  /** Called after every poll (not the watches between), once its events were delivered: policies act here. */
  onPoll(listener: (now: number) => void): () => void {
    return this.listeners.onPoll(listener);
  }

  /**
   * Moves whenever a run found a process born, gone or read with other values (CPU time, memory,
   * parent, group, state…), or anything was recorded (events, signals, settings): while it stands
   * still, every group view built from the monitor alone comes out the same. Idle leftovers and a
   * quiet agent leave it still, though their processes are re-read every poll.
   */
  get viewVersion(): number {
    return this.version;
  }

  /** Why processes are left unread now (out of descriptors); null while every look reads them. */
  get readProblem(): string | null {
    return this.readFailures.current;
  }

  /** How many of its polls came so late that it was stalled (stall.ts), and so started readings afresh. */
  get stallCount(): number {
    return this.stalls;
  }

  /** How many whole-table sweeps have run: a viewer's other periodic reads can go with them. */
  get sweepCount(): number {
    return this.sweeps;
  }

  /** How often the monitor polls now (ms): pollIntervalMs, or quietPollIntervalMs while quiet; null when stopped. */
  get pollPaceMs(): number | null {
    return this.schedule.isRunning ? this.schedule.pollIntervalMs : null;
  }

  /** How often the watch looks between polls now (ms); null while only the polls look. */
  get watchPaceMs(): number | null {
    return this.schedule.isRunning ? this.schedule.watchInterval() : null;
  }

  /** Someone is looking at every group (an open window, a browser): keep the whole table fresher. */
  setWholeTableWanted(wanted: boolean): void {
    const opened = wanted && !this.wholeTableWanted;
    this.wholeTableWanted = wanted;
    if (opened) this.schedule.repace();
  }

  /** After a sleep or a stall: CPU readings and hot streaks start afresh, so the gap is not read as load. */
  rebaseline(): void {
    this.version++;
    this.table.rebaseline();
  }

  /** New settings apply from the next poll; new signatures to processes seen from then on. */
  updateSettings(settings: Settings, matcher: AgentMatcher = this.matcher): void {
    this.version++;
    this.settings = settings;
    this.matcher = matcher;
  }

  get currentSettings(): Settings {
    return this.settings;
  }

  /** Starts polling (monitor-schedule.ts decides when each look runs). */
  start(): void {
    this.schedule.start();
  }

  stop(): void {
    this.schedule.stop();
  }

  /** Restored incidents are checked against the first table that was actually read, never an empty one. */
  private pollOnce(): void {
    this.poll();
    if (this.restoredChecked) return;
    this.restoredChecked = true;
    this.incidents.closeRestored(this.now());
    this.flush();
  }

  /**
   * One poll: pids allocated since the last look are classified, agents' processes re-read, and every
   * Nth time the whole table is swept (exits of processes no agent owns are noticed there).
   */
  poll(): void {
    const now = this.now();
    const sampler = this.options.sampler;
    const sweepEvery = this.wholeTableWanted
      ? WATCHED_SWEEP_EVERY
      : (this.options.fullSweepEvery ?? DEFAULT_FULL_SWEEP_EVERY);
    this.sweepCredit = Math.min(this.sweepCredit, sweepEvery);
    const full = this.sweepCredit <= 0;
    if (full) this.sweepCredit = sweepEvery;
    this.sweepCredit -= this.schedule.pollSpan;
    this.state.polls++;
    this.state.watchingSince ??= now;
    if (full) {
      this.sweeps++;
      this.pidWatch.restartPidCursor();
      const records = sampler.sampleAll();
      this.ingest(records, new Set(records.map((r) => r.pid)), null, now, true);
    } else {
      const fresh = this.pidWatch.discoverNewPids();
      if (fresh === null) {
        const pids = sampler.listPids();
        const procs = this.state.procs;
        const toRead = pids.filter((pid) => !procs.has(pid) || this.state.agentPids.has(pid));
        this.ingest(readWithMissedParents(sampler, toRead, procs), new Set(pids), null, now, true);
      } else {
        // Idle processes are read less often only while nothing is born and nobody looks at the table.
        const readAll = fresh.length > 0 || this.wholeTableWanted || this.pidWatch.exitWatch !== 'all';
        const toRead = new Set<number>(
          readAll ? this.state.agentPids : this.table.agentPidsDue(this.state.polls),
        );
        for (const pid of fresh) toRead.add(pid);
        for (const pid of this.table.takeProbation()) toRead.add(pid);
        this.ingest(readWithMissedParents(sampler, toRead, this.state.procs), null, toRead, now, true);
      }
    }
    this.flush();
    this.listeners.polled(now);
  }

  /** The cheap watch between polls: reads what the pid watch says was born, exited or forked. */
  watch(): void {
    const toRead = this.pidWatch.pidsToRead();
    if (toRead === null) return;
    const records = readWithMissedParents(this.options.sampler, toRead, this.state.procs);
    this.ingest(records, null, toRead, this.now(), false);
    this.flush();
  }

  private guard(step: string, run: () => void): void {
    try {
      run();
    } catch (err) {
      // Corral could not look (a listing refused for want of descriptors): said once, not at every look.
      if (err instanceof ProcReadFailed) return this.readFailures.check(err.message);
      this.errors.count++;
      this.errors.last = `${step}: ${err instanceof Error ? err.message : String(err)}`;
      this.options.onError?.(step, err);
    }
  }

  /** One batch of records through the table, then groups, watches, held pipes and incidents. */
  private ingest(
    records: Parameters<ProcessTable['ingest']>[0],
    alive: ReadonlySet<number> | null,
    readPids: ReadonlySet<number> | null,
    now: number,
    isPoll: boolean,
  ): void {
    const valueChanges = this.state.valueChanges;
    // A process the sampler could not look at (out of descriptors) is neither gone nor new: it is kept
    // as known, and read again at the next look.
    const unread = this.options.sampler.unreadPids?.();
    if (unread && unread.size > 0) {
      if (alive) alive = new Set([...alive, ...unread]);
      if (readPids) readPids = new Set([...readPids].filter((pid) => !unread.has(pid)));
    }
    this.readFailures.check(this.options.sampler.readFailure ?? null);
    this.table.ingest(records, alive, readPids, now, isPoll);
    // Births and exits change the structure; reads that found the same values change nothing.
    if (this.state.valueChanges !== valueChanges || this.state.structureChanged) this.version++;
    // A quiet batch (the same processes, parents and groups) changes no group and no watch.
    if (this.state.structureChanged || alive) {
      this.state.structureChanged = false;
      this.groupTracker.update(now);
      this.pidWatch.update();
    }
    this.guard('births', () => this.births.count(records, now));
    if (isPoll) {
      const heldPipes = this.heldPipes;
      if (heldPipes)
        this.guard('held pipes', () => {
          if (heldPipes.run(now)) this.version++;
        });
      // Both follow what the version counts (readings, members, flags' events, settings): while it stands
      // and nothing is pending, another run would change nothing, unless a memory clock is running.
      if (this.memoryGate.due(this.version, !this.memory.settled))
        this.guard('memory', () => this.memory.run(now));
      this.guard('spawn storms', () => this.spawnStorms.run(now));
      if (this.incidentsGate.due(this.version, this.state.pendingEvents.length > 0))
        this.guard('incidents', () => this.incidents.updateAll(now));
      this.guard('spawn storms', () => this.spawnStorms.recordOnIncidents(now));
      this.table.forgetEnded();
    } else if (this.state.flagRaised) this.guard('incidents', () => this.incidents.updateAll(now));
    this.state.flagRaised = false;
  }

  /** Delivers the events of one run in order, and saves the incidents it changed in one write. */
  private flush(): void {
    const events = this.state.takeEvents();
    if (events.length > 0) this.version++;
    const saves = this.state.pendingIncidentSaves;
    if (saves.size > 0 && this.options.incidents) {
      const batch = [...saves.values()];
      saves.clear();
      this.guard('incident storage', () => {
        if (!this.options.incidents!.sink.save(batch))
          this.storageProblem = 'incidents could not be saved durably';
      });
    }
    this.listeners.deliver(events);
  }

  // Read access for the snapshot and timeline builders (TrackedTable; a group's flags: group-flags.ts).
  trackedProcesses(): IterableIterator<TrackedProcess> {
    return this.state.procs.values();
  }

  trackedGroups(): IterableIterator<TrackedGroup> {
    return this.state.groups.values();
  }

  groupById(id: string): TrackedGroup | undefined {
    return this.state.groups.get(id);
  }

  liveGroup(pgid: number): TrackedGroup | undefined {
    return this.state.liveGroupByPgid.get(pgid);
  }

  openIncidents(): Incident[] {
    return this.incidents.openIncidents();
  }

  /**
   * The id this monitor (or an open incident) gave the group now holding these processes under this
   * PGID; null when it names none of them. A hook's note names the group as every view does.
   */
  knownGroupId(pgid: number, members: readonly { pid: number; startKey: number }[]): string | null {
    const live = this.liveGroup(pgid);
    const followed = live
      ? [{ groupId: live.id, pgid, processes: [...live.members.values()].map((m) => m.record) }]
      : [];
    return recordedGroupId([...followed, ...this.openIncidents()], pgid, members);
  }

  /** Records that a user asked to stop this group, and the signals sent, for its timeline and incidents. */
  noteSignal(
    groupId: string,
    signal: string,
    target: string,
    result: string,
    at: number,
    by = 'you, in Corral',
  ): void {
    if (!noteSignalOn(this.state, groupId, { signal, target, result, at, by })) return;
    this.version++;
    this.flush();
  }

  /** Brings onto the group's timeline the signals a `corral kill` recorded for it (requested-stops.ts). */
  importRequestedStops(groupId: string, now = Date.now()): void {
    const group = this.state.groups.get(groupId);
    if (!group || !this.options.stopRequests) return;
    if (!importRequestedStops(this.state, group, now, this.options.stopRequests)) return;
    this.version++;
    this.flush();
  }
}
