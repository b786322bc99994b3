import type { GroupFlag, Incident, MonitorEvent, Settings } from '../../../shared/model';
import type { AgentMatcher } from '../analysis/agent-matcher';
import type { ExitWatchCoverage, ProcessSampler } from '../sampling/process-record';
import { groupFlags } from './group-flags';
import { GroupTracker } from './group-tracker';
import { importRequestedStops } from './requested-stops';
import { HeldPipeCheck, type FindHeldPipes } from './held-pipe-check';
import { IncidentGlue } from './incident-glue';
import { MemoryCheck } from './memory-check';
import { MonitorState } from './monitor-state';
import { PolicyGlue } from './policy-glue';
import { ProcessTable } from './process-table';
import { isStall } from './stall';
import type { TrackedGroup, TrackedProcess } from './tracked';

export interface IncidentSink {
  /** Saves changed incidents in one write; returns false when they could not be made durable. */
  save(incidents: readonly Incident[]): boolean;
}

export interface MonitorOptions {
  sampler: ProcessSampler;
  matcher: AgentMatcher;
  settings: Settings;
  /** Held-pipe lookup (Linux); omitted where the platform has none. */
  findHeldPipes?: FindHeldPipes;
  incidents?: { restored: readonly Incident[]; sink: IncidentSink };
  /** Interval of the cheap lineage watch of agents' descendants while they are busy (ms). */
  watchIntervalMs?: number;
  /**
   * Interval of that watch once nothing of an agent's was born or exited for a few seconds (ms): it
   * bounds how late an orphan whose wrapper lived less than one look is seen.
   */
  idleWatchIntervalMs?: number;
  /** A full table sweep every this many polls; the polls between read only new and agents' pids. */
  fullSweepEvery?: number;
  /** How long ended groups stay available for timelines. */
  retainEndedMs?: number;
  now?: () => number;
  onError?: (step: string, err: unknown) => void;
}

/**
 * A full table sweep every this many polls while nobody looks at the whole table (every 5 minutes at
 * the default 1 s poll), and every WATCHED_SWEEP_EVERY polls while a view of every group is open.
 * Exits of processes no agent owns are noticed at the sweeps: only a view of every group shows them,
 * and it asks for sweeps often.
 */
export const DEFAULT_FULL_SWEEP_EVERY = 300;
const WATCHED_SWEEP_EVERY = 5;
const DEFAULT_WATCH_MS = 100;
/**
 * The busy pace when exits come from the sampler's thread: the watch then only reads the kernel's pid
 * counter (one pread), so it can look often enough to see a tool call's child orphaned by a wrapper that
 * exits at once (which no exit event can announce: it was never followed) within 20 ms. Such an orphan is
 * seen at the first look after its wrapper exited, so detection takes up to one pace plus the look's own
 * time (at 40 ms the bench measured p95 37-46 ms). Only while an agent's processes are born or exit.
 */
const EVENT_DRIVEN_WATCH_MS = 15;
const DEFAULT_IDLE_WATCH_MS = 200;
/** The watch stays at its fast pace this long after an agent's process was born or exited. */
const BUSY_FOR_MS = 5_000;

/**
 * The watch loop: samples on a schedule, diffs each sample against what it knew, and emits typed
 * events. Agents' descendants are followed closely (their parents' child lists several times a second);
 * new pids are read once to classify them; the whole table is swept at a slower pace. The process
 * table, group tracker, held-pipe check and incident glue do the work; this class decides when, and
 * delivers what they found.
 */
export class Monitor {
  private readonly state = new MonitorState();
  private readonly table: ProcessTable;
  private readonly groupTracker: GroupTracker;
  private readonly incidents: IncidentGlue;
  private readonly heldPipes: HeldPipeCheck | null;
  private readonly memory: MemoryCheck;
  /** Policies' events, incident notes and stops (see policy-glue). */
  readonly policies: PolicyGlue;
  private readonly pollListeners = new Set<(now: number) => void>();
  private readonly listeners = new Set<(event: MonitorEvent) => void>();
  private readonly tickListeners = new Set<(hadEvents: boolean) => void>();
  private settings: Settings;
  private matcher: AgentMatcher;
  private watchedParents = new Set<number>();
  /** Each watched parent's child list as last read (the sampler returns the same array when unchanged). */
  private readonly lastChildren = new Map<number, number[]>();
  /** The kernel's last-pid counter when last read: new pids are the ones after it. */
  private pidCursor: number | null = null;
  private listOnNextPoll = false;
  private wholeTableWanted = false;
  /** The one pending timer: each wake runs a poll when one is due, the watch otherwise. */
  private timer: NodeJS.Timeout | null = null;
  /** Monotonic times (performance.now()) of the schedule. */
  private nextPollAt = 0;
  private lastLookAt = 0;
  private lastPollAt = 0;
  private stalls = 0;
  /** How far the sampler follows agents' processes for exit (pidfds); below 'all', child lists are read. */
  private exitWatch: ExitWatchCoverage = 'unavailable';
  /** Stops the sampler's wait for exits in a thread of its own; null where exits are polled on the timer. */
  private stopExitWait: (() => void) | null = null;
  private exitLookPending = false;
  private running = false;
  private restoredChecked = false;
  readonly errors = { count: 0, last: null as string | null };
  storageProblem: string | null = null;
  private version = 0;
  private sweeps = 0;

  constructor(private readonly options: MonitorOptions) {
    this.settings = options.settings;
    this.matcher = options.matcher;
    this.table = new ProcessTable(this.state, {
      settings: () => this.settings,
      matcher: () => this.matcher,
      baseMs: this.now(),
    });
    this.incidents = new IncidentGlue(this.state, options.incidents?.restored ?? []);
    this.groupTracker = new GroupTracker(this.state, this.incidents, options.retainEndedMs);
    this.heldPipes = options.findHeldPipes ? new HeldPipeCheck(this.state, options.findHeldPipes) : null;
    this.memory = new MemoryCheck(this.state, () => this.settings.memory);
    this.policies = new PolicyGlue(this.state, this.incidents, () => this.flush());
  }

  private now(): number {
    return this.options.now ? this.options.now() : Date.now();
  }

  onEvent(listener: (event: MonitorEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Called at the end of every poll, and of each watch (or noted signal) that read or recorded something;
   * `hadEvents` says whether it delivered events (a flag came or went): viewers between polls refresh then.
   */
  onTick(listener: (hadEvents: boolean) => void): () => void {
    this.tickListeners.add(listener);
    return () => this.tickListeners.delete(listener);
  }

  /** Called after every poll (not the watches between), once its events were delivered: policies act here. */
  onPoll(listener: (now: number) => void): () => void {
    this.pollListeners.add(listener);
    return () => this.pollListeners.delete(listener);
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

  /** How many of its polls came so late that it was stalled (stall.ts), and so started readings afresh. */
  get stallCount(): number {
    return this.stalls;
  }

  /** How many whole-table sweeps have run: a viewer's other periodic reads can go with them. */
  get sweepCount(): number {
    return this.sweeps;
  }

  /** How often the watch looks between polls now (ms); null while only the polls look. */
  get watchPaceMs(): number | null {
    return this.running ? this.watchInterval() : null;
  }

  /** Someone is looking at every group (an open window, a browser): keep the whole table fresher. */
  setWholeTableWanted(wanted: boolean): void {
    this.wholeTableWanted = wanted;
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

  /**
   * Starts polling. One timer serves both paces, so a poll and a watch never cost two wake-ups, and each
   * run is scheduled after the previous one finished, so runs never overlap.
   */
  start(): void {
    if (this.running) return;
    this.running = true;
    // Exits of agents' processes and their parents then wake a look at once, between the timer's looks.
    this.stopExitWait = this.options.sampler.waitForExits?.(() => this.exitSignalled()) ?? null;
    this.guard('poll', () => this.pollOnce());
    this.lastPollAt = this.lastLookAt = performance.now();
    this.nextPollAt = this.lastPollAt + this.settings.pollIntervalMs;
    this.schedule();
  }

  stop(): void {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.stopExitWait?.();
    this.stopExitWait = null;
  }

  /**
   * A followed process exited: its group is looked at now (its children, reparented, are read), not at the
   * next tick. Deferred to its own turn, since the sampler may say so while the monitor is mid-run.
   */
  private exitSignalled(): void {
    if (this.exitLookPending || !this.running) return;
    this.exitLookPending = true;
    setImmediate(() => {
      this.exitLookPending = false;
      if (this.running) this.guard('watch', () => this.watch());
    });
  }

  private schedule(): void {
    const watchEvery = this.watchInterval();
    const due =
      watchEvery === null ? this.nextPollAt : Math.min(this.nextPollAt, this.lastLookAt + watchEvery);
    this.timer = setTimeout(() => this.wake(), Math.max(0, due - performance.now()));
  }

  private wake(): void {
    if (!this.running) return;
    const at = performance.now();
    // A poll does the watch's work too: it reads new pids and every agent's process.
    if (at >= this.nextPollAt - 1) {
      if (isStall(at - this.lastPollAt, this.settings.pollIntervalMs)) {
        this.stalls++;
        this.rebaseline();
      }
      this.guard('poll', () => this.pollOnce());
      this.lastPollAt = at;
      this.nextPollAt = at + this.settings.pollIntervalMs;
    } else if (this.watchInterval() !== null) {
      // (A timer set while busy may come due after the agents went quiet: then it only reschedules.)
      this.guard('watch', () => this.watch());
    }
    this.lastLookAt = at;
    if (this.running) this.schedule();
  }

  /**
   * The watch's pace: none while no agent's process is alive (the poll classifies newcomers, an agent
   * among them), fast while agents' processes are being born or exiting, slower once they are quiet.
   * Exits of followed processes wake it at once where the sampler waits for them in a thread. The quiet
   * pace stays even then, unless every agent marks its tool calls: a tool call whose shell exits before
   * any look is seen only through new pids, and a child without markers is tied to its agent only by
   * having seen that shell (left to the 1 s poll, the worker-service test missed it 1 run in 3).
   */
  private watchInterval(): number | null {
    const sampler = this.options.sampler;
    if (!sampler.childrenOf && !sampler.newPidsSince && !sampler.exitedWatched) return null;
    if (this.state.agentPids.size === 0) return null;
    const busy = performance.now() - this.state.lastActivityAt < BUSY_FOR_MS;
    // Exits wake the monitor only for what the sampler follows: all of it, or the watch keeps polling.
    const eventDriven = this.stopExitWait !== null && this.exitWatch === 'all';
    // Without the pid counter (macOS), a watch between polls could only collect exits, which then wake it.
    if (eventDriven && !sampler.newPidsSince) return null;
    const fast = this.options.watchIntervalMs ?? (eventDriven ? EVENT_DRIVEN_WATCH_MS : DEFAULT_WATCH_MS);
    if (busy) return fast;
    if (eventDriven && this.options.idleWatchIntervalMs === undefined && this.everyAgentMarksToolCalls())
      return null;
    return Math.max(fast, this.options.idleWatchIntervalMs ?? DEFAULT_IDLE_WATCH_MS);
  }

  /**
   * Whether every live agent was seen to mark its tool calls. A quiet agent then costs no wake-ups between
   * polls: what a tool call leaves behind carries the agent's markers, so the next poll (its new pids)
   * attributes it, and flags it orphaned if its shell already exited, without having seen the shell.
   * Exits of what was seen still wake a look at once (pidfds), and a birth makes the watch busy again.
   */
  private everyAgentMarksToolCalls(): boolean {
    const marking = this.state.agentsMarkingToolCalls;
    if (marking.size === 0) return false;
    for (const p of this.state.liveAgentProcs())
      if (p.attribution?.isAgent && !marking.has(p.identity)) return false;
    return true;
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
    const full = this.state.polls % sweepEvery === 0;
    this.state.polls++;
    this.state.watchingSince ??= now;
    if (full) {
      this.sweeps++;
      this.pidCursor = sampler.newPidsSince?.(null).cursor ?? null;
      const records = sampler.sampleAll();
      this.ingest(records, new Set(records.map((r) => r.pid)), null, now, true);
    } else {
      const fresh = this.discoverNewPids();
      if (fresh === null) {
        const pids = sampler.listPids();
        const procs = this.state.procs;
        const toRead = pids.filter((pid) => !procs.has(pid) || this.state.agentPids.has(pid));
        this.ingest(sampler.sampleSome(toRead), new Set(pids), null, now, true);
      } else {
        // Idle processes are read less often only while nothing is born and nobody looks at the table.
        const readAll = fresh.length > 0 || this.wholeTableWanted || this.exitWatch !== 'all';
        const toRead = new Set<number>(
          readAll ? this.state.agentPids : this.table.agentPidsDue(this.state.polls),
        );
        for (const pid of fresh) toRead.add(pid);
        for (const pid of this.table.takeProbation()) toRead.add(pid);
        this.ingest(sampler.sampleSome(toRead), null, toRead, now, true);
      }
    }
    this.flush();
    for (const l of this.pollListeners) this.guard('poll listener', () => l(now));
  }

  /** New pids from the kernel's counter; null when the table must be listed instead. */
  private discoverNewPids(): number[] | null {
    const sampler = this.options.sampler;
    if (!sampler.newPidsSince || this.pidCursor === null || this.listOnNextPoll) {
      this.listOnNextPoll = false;
      return null;
    }
    const { cursor, pids } = sampler.newPidsSince(this.pidCursor);
    this.pidCursor = cursor;
    if (pids === null) this.listOnNextPoll = true;
    return pids;
  }

  /**
   * The cheap watch between polls: pids allocated since the last look (so a tool call's child is seen
   * even when its shell exits at once), and exits among agents' processes and their parents (one poll
   * over pidfds; where those are unavailable, the child lists of agents' processes that have children).
   */
  watch(): void {
    const fresh = this.discoverNewPids();
    const sampler = this.options.sampler;
    const exited = this.exitWatch !== 'unavailable' && sampler.exitedWatched ? sampler.exitedWatched() : null;
    const forked = this.exitWatch !== 'unavailable' && sampler.forkedWatched ? sampler.forkedWatched() : null;
    const readChildLists = this.exitWatch !== 'all' && sampler.childrenOf && this.watchedParents.size > 0;
    if (
      (fresh === null || fresh.length === 0) &&
      (exited === null || exited.length === 0) &&
      (forked === null || forked.length === 0) &&
      !readChildLists
    )
      return;
    const toRead = new Set<number>(fresh ?? []);
    // A followed process forked (macOS): its child, unknown yet, is read while its parent is still there.
    if (forked && sampler.childrenOf)
      for (const parent of forked) {
        toRead.add(parent);
        for (const k of sampler.childrenOf(parent) ?? []) if (!this.state.procs.has(k)) toRead.add(k);
      }
    // Newcomers are classified by their parents: an agent's process read between its fork and exec
    // (a tool call's shell under the agent's name) is re-read with them, so its exec is seen first.
    if (fresh && fresh.length > 0) for (const pid of this.table.agentsOwnPids()) toRead.add(pid);
    if (exited && exited.length > 0) {
      const knownChildren = this.table.knownChildren();
      for (const pid of exited) {
        toRead.add(pid);
        // Its children were reparented as it exited: reading them now sees it.
        for (const k of knownChildren.get(pid) ?? []) toRead.add(k);
      }
    }
    if (readChildLists && sampler.childrenOf) {
      let knownChildren: Map<number, number[]> | null = null;
      for (const parent of this.watchedParents) {
        const kids = sampler.childrenOf(parent);
        // The same list as last time: nothing was born or lost there (the common case, made cheap).
        if (kids !== null && kids === this.lastChildren.get(parent)) continue;
        knownChildren ??= this.table.knownChildren();
        const known = knownChildren.get(parent) ?? [];
        if (kids === null) {
          this.lastChildren.delete(parent);
          toRead.add(parent);
          for (const k of known) toRead.add(k);
          continue;
        }
        this.lastChildren.set(parent, kids);
        const current = new Set(kids);
        for (const k of known) if (!current.has(k)) toRead.add(k);
        for (const k of kids) if (!this.state.procs.has(k)) toRead.add(k);
      }
    }
    if (toRead.size === 0) return;
    const now = this.now();
    this.ingest(this.options.sampler.sampleSome(toRead), null, toRead, now, false);
    this.flush();
  }

  private guard(step: string, run: () => void): void {
    try {
      run();
    } catch (err) {
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
    this.table.ingest(records, alive, readPids, now, isPoll);
    // Births and exits change the structure; reads that found the same values change nothing.
    if (this.state.valueChanges !== valueChanges || this.state.structureChanged) this.version++;
    // A quiet batch (the same processes, parents and groups) changes no group and no watch.
    if (this.state.structureChanged || alive) {
      this.state.structureChanged = false;
      this.groupTracker.update(now);
      this.updateWatches();
    }
    if (isPoll) {
      const heldPipes = this.heldPipes;
      if (heldPipes)
        this.guard('held pipes', () => {
          if (heldPipes.run(now)) this.version++;
        });
      this.guard('memory', () => this.memory.run(now));
      this.guard('incidents', () => this.incidents.updateAll(now));
      this.table.forgetEnded();
    }
  }

  /** Which processes the watch follows: agents' processes and their parents, whose exit orphans them. */
  private updateWatches(): void {
    this.watchedParents = this.table.watchedParents();
    for (const parent of this.lastChildren.keys())
      if (!this.watchedParents.has(parent)) this.lastChildren.delete(parent);
    const sampler = this.options.sampler;
    if (!sampler.watchExits) return;
    const targets = new Map<number, number>();
    const follow = (pid: number): void => {
      const p = this.state.procs.get(pid);
      if (p && p.exitedAt === null) targets.set(pid, p.record.startKey);
    };
    // Parents first: if descriptors run short, their exits matter most.
    for (const pid of this.watchedParents) follow(pid);
    for (const pid of this.state.agentPids) follow(pid);
    this.exitWatch = sampler.watchExits(targets);
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
    for (const e of events) for (const l of this.listeners) this.guard('event listener', () => l(e));
    const hadEvents = events.length > 0;
    for (const l of this.tickListeners) this.guard('tick listener', () => l(hadEvents));
  }

  // Read access for the snapshot and timeline builders.
  groupFlags(group: TrackedGroup): GroupFlag[] {
    return groupFlags(group);
  }

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

  /** Records that a user asked to stop this group, and the signals sent, for its timeline and incidents. */
  noteSignal(
    groupId: string,
    signal: string,
    target: string,
    result: string,
    at: number,
    by = 'you, in Corral',
  ): void {
    const group = this.state.groups.get(groupId);
    if (!group) return;
    this.version++;
    group.stopRequestedAt ??= at;
    for (const id of group.live) {
      group.members
        .get(id)
        ?.markers.push({ at, kind: 'signal', label: `${signal} → ${target} (${result})`, by });
    }
    this.state.pendingEvents.push({
      type: 'signal-sent',
      at,
      groupId,
      pid: group.pgid,
      pgid: group.pgid,
      sid: group.sid,
      agent: group.agent,
      detail: { signal, target, result, by },
    });
    this.flush();
  }

  /** Brings onto the group's timeline the signals a `corral kill` recorded for it (requested-stops.ts). */
  importRequestedStops(groupId: string, now = Date.now()): void {
    const group = this.state.groups.get(groupId);
    if (!group || !importRequestedStops(this.state, group, now)) return;
    this.version++;
    this.flush();
  }
}
