import type { GroupFlag, Incident, MonitorEvent, MonitorEventType, Settings } from '../../../shared/model';
import type { AgentMatcher } from '../analysis/agent-matcher';
import { attribute } from '../analysis/attribution';
import { CpuMeter } from '../analysis/cpu-meter';
import { chooseAnchor, formatGroupId } from '../analysis/group-id';
import { commandOf } from '../analysis/grouping';
import { describeHeldPipe } from '../analysis/held-pipes/describe-held-pipe';
import type { HeldPipe } from '../analysis/held-pipes/match-held-pipes';
import { LineageMemory, type LineageEntry } from '../analysis/lineage-memory';
import { isOrphan } from '../analysis/orphans';
import { initialRunawayState, nextRunawayState } from '../analysis/runaway';
import {
  identityKey,
  type ExitWatchCoverage,
  type ProcessRecord,
  type ProcessSampler,
} from '../sampling/process-record';
import { CpuHistory } from './cpu-history';
import { IncidentTracker, type IncidentChange } from './incident-tracker';
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
  findHeldPipes?: (query: { readerPids: readonly number[]; holderPids: readonly number[] }) => HeldPipe[];
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

const MAX_ENDED_GROUPS = 500;
/**
 * A full table sweep every this many polls while nobody looks at the whole table (every 5 minutes at
 * the default 1 s poll), and every WATCHED_SWEEP_EVERY polls while a view of every group is open.
 * Exits of processes no agent owns are noticed at the sweeps: only a view of every group shows them,
 * and it asks for sweeps often.
 */
export const DEFAULT_FULL_SWEEP_EVERY = 300;
const WATCHED_SWEEP_EVERY = 5;
const PROBATION_POLLS = 3;
const DEFAULT_WATCH_MS = 100;
const DEFAULT_IDLE_WATCH_MS = 200;
/** The watch stays at its fast pace this long after an agent's process was born or exited. */
const BUSY_FOR_MS = 5_000;

/**
 * The watch loop: samples on a schedule, diffs each sample against what it knew, and emits typed
 * events. Agents' descendants are followed closely (their parents' child lists several times a second);
 * new pids are read once to classify them; the whole table is swept at a slower pace.
 */
export class Monitor {
  private readonly procs = new Map<number, TrackedProcess>();
  private readonly groups = new Map<string, TrackedGroup>();
  private readonly liveGroupByPgid = new Map<number, TrackedGroup>();
  private readonly memory = new LineageMemory();
  private readonly meter = new CpuMeter();
  private readonly incidents: IncidentTracker;
  private readonly listeners = new Set<(event: MonitorEvent) => void>();
  private readonly tickListeners = new Set<() => void>();
  private readonly baseMs: number;
  private settings: Settings;
  private matcher: AgentMatcher;
  private watchedParents = new Set<number>();
  /** Each watched parent's child list as last read (the sampler returns the same array when unchanged). */
  private readonly lastChildren = new Map<number, number[]>();
  /** pids of live agent-attributed processes: the few the monitor looks at every poll. */
  private readonly agentPids = new Set<number>();
  /** Newcomers no agent owned when first seen, re-read for a few polls (they may exec into one). */
  private readonly probation = new Map<number, number>();
  /** The kernel's last-pid counter when last read: new pids are the ones after it. */
  private pidCursor: number | null = null;
  private listOnNextPoll = false;
  private wholeTableWanted = false;
  private polls = 0;
  /** The one pending timer: each wake runs a poll when one is due, the watch otherwise. */
  private timer: NodeJS.Timeout | null = null;
  /** Monotonic times (performance.now()) of the schedule. */
  private nextPollAt = 0;
  private lastLookAt = 0;
  private lastActivityAt = -Infinity;
  /** How far the sampler follows agents' processes for exit (pidfds); below 'all', child lists are read. */
  private exitWatch: ExitWatchCoverage = 'unavailable';
  /** Set when processes came, went, or changed parent, group or session: groups and watches need a look. */
  private structureChanged = true;
  private running = false;
  private restoredChecked = false;
  private pendingEvents: MonitorEvent[] = [];
  private pendingIncidentSaves = new Map<string, Incident>();
  readonly errors = { count: 0, last: null as string | null };
  storageProblem: string | null = null;

  constructor(private readonly options: MonitorOptions) {
    this.settings = options.settings;
    this.matcher = options.matcher;
    this.baseMs = this.now();
    this.incidents = new IncidentTracker(options.incidents?.restored ?? []);
  }

  private now(): number {
    return this.options.now ? this.options.now() : Date.now();
  }

  onEvent(listener: (event: MonitorEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called after every poll that changed what the monitor knows. */
  onTick(listener: () => void): () => void {
    this.tickListeners.add(listener);
    return () => this.tickListeners.delete(listener);
  }

  /** Someone is looking at every group (an open window, a browser): keep the whole table fresher. */
  setWholeTableWanted(wanted: boolean): void {
    this.wholeTableWanted = wanted;
  }

  /** After a sleep or a stall: CPU readings and hot streaks start afresh, so the gap is not read as load. */
  rebaseline(): void {
    this.meter.rebaseline();
    for (const p of this.procs.values()) if (!p.runaway.active) p.runaway = initialRunawayState();
  }

  /** New settings apply from the next poll; new signatures to processes seen from then on. */
  updateSettings(settings: Settings, matcher: AgentMatcher = this.matcher): void {
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
    this.guard('poll', () => this.pollOnce());
    this.nextPollAt = performance.now() + this.settings.pollIntervalMs;
    this.lastLookAt = performance.now();
    this.schedule();
  }

  stop(): void {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
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
      this.guard('poll', () => this.pollOnce());
      this.nextPollAt = at + this.settings.pollIntervalMs;
    } else {
      this.guard('watch', () => this.watch());
    }
    this.lastLookAt = at;
    if (this.running) this.schedule();
  }

  /**
   * The watch's pace: none while no agent's process is alive (the poll classifies newcomers, an agent
   * among them), fast while agents' processes are being born or exiting, slower once they are quiet.
   */
  private watchInterval(): number | null {
    const sampler = this.options.sampler;
    if (!sampler.childrenOf && !sampler.newPidsSince && !sampler.exitedWatched) return null;
    if (this.agentPids.size === 0) return null;
    const busy = performance.now() - this.lastActivityAt < BUSY_FOR_MS;
    const fast = this.options.watchIntervalMs ?? DEFAULT_WATCH_MS;
    return busy ? fast : Math.max(fast, this.options.idleWatchIntervalMs ?? DEFAULT_IDLE_WATCH_MS);
  }

  /** Restored incidents are checked against the first table that was actually read, never an empty one. */
  private pollOnce(): void {
    this.poll();
    if (this.restoredChecked) return;
    this.restoredChecked = true;
    this.closeRestoredIncidents();
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
    const full = this.polls % sweepEvery === 0;
    this.polls++;
    if (full) {
      this.pidCursor = sampler.newPidsSince?.(null).cursor ?? null;
      const records = sampler.sampleAll();
      this.ingest(records, new Set(records.map((r) => r.pid)), null, now, true);
    } else {
      const fresh = this.discoverNewPids();
      if (fresh === null) {
        const pids = sampler.listPids();
        const toRead = pids.filter((pid) => !this.procs.has(pid) || this.agentPids.has(pid));
        this.ingest(sampler.sampleSome(toRead), new Set(pids), null, now, true);
      } else {
        const toRead = new Set<number>(this.agentPids);
        for (const pid of fresh) toRead.add(pid);
        for (const [pid, left] of this.probation) {
          toRead.add(pid);
          if (left <= 1) this.probation.delete(pid);
          else this.probation.set(pid, left - 1);
        }
        this.ingest(sampler.sampleSome(toRead), null, toRead, now, true);
      }
    }
    this.flush();
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
    const readChildLists = this.exitWatch !== 'all' && sampler.childrenOf && this.watchedParents.size > 0;
    if ((fresh === null || fresh.length === 0) && (exited === null || exited.length === 0) && !readChildLists)
      return;
    const toRead = new Set<number>(fresh ?? []);
    if (exited && exited.length > 0) {
      const knownChildren = this.knownChildren();
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
        knownChildren ??= this.knownChildren();
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
        for (const k of kids) if (!this.procs.has(k)) toRead.add(k);
      }
    }
    if (toRead.size === 0) return;
    const now = this.now();
    this.ingest(this.options.sampler.sampleSome(toRead), null, toRead, now, false);
    this.flush();
  }

  /** Agents' live processes by parent pid. */
  private knownChildren(): Map<number, number[]> {
    const byParent = new Map<number, number[]>();
    for (const p of this.liveAgentProcs()) {
      const list = byParent.get(p.record.ppid);
      if (list) list.push(p.record.pid);
      else byParent.set(p.record.ppid, [p.record.pid]);
    }
    return byParent;
  }

  private liveAgentProcs(): TrackedProcess[] {
    const live: TrackedProcess[] = [];
    for (const pid of this.agentPids) {
      const p = this.procs.get(pid);
      if (p && p.exitedAt === null) live.push(p);
    }
    return live;
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

  /**
   * Folds a batch of records into the tracked state. `alive` (a full pid list) or `readPids` (the pids
   * asked for) tells which tracked processes are gone.
   */
  private ingest(
    records: readonly ProcessRecord[],
    alive: ReadonlySet<number> | null,
    readPids: ReadonlySet<number> | null,
    now: number,
    isPoll: boolean,
  ): void {
    const seen = new Set<number>();
    const newcomers: ProcessRecord[] = [];
    const updated: TrackedProcess[] = [];
    for (const r of records) {
      seen.add(r.pid);
      const known = this.procs.get(r.pid);
      if (known && known.record.startKey === r.startKey) {
        this.updateKnown(known, r, now);
        updated.push(known);
      } else {
        if (known) this.markExited(known, now);
        newcomers.push(r);
      }
    }
    const candidates = alive ? [...this.procs.keys()] : readPids ? [...readPids] : [];
    for (const pid of candidates) {
      const p = this.procs.get(pid);
      const gone = alive ? !alive.has(pid) : !seen.has(pid);
      if (p && gone) {
        this.markExited(p, now);
        this.procs.delete(pid);
      }
    }
    newcomers.sort((a, b) => a.startKey - b.startKey || a.pid - b.pid);
    this.addNewcomers(newcomers, now);

    for (const r of records) {
      const p = this.procs.get(r.pid);
      if (!p || p.record !== r) continue;
      const percent = this.meter.reading(p.identity, r.cpuTimeMs, now);
      if (percent !== null) p.cpuPercent = percent;
      if (isPoll && p.attribution && p.exitedAt === null) this.trackCpu(p, percent, now);
    }
    for (const p of updated) this.checkReparented(p, now);
    // A quiet batch (the same processes, parents and groups) changes no group and no watch.
    if (this.structureChanged || alive) {
      this.structureChanged = false;
      this.updateGroups(now);
      this.updateWatches();
    }
    if (isPoll) {
      this.guard('held pipes', () => this.checkHeldPipes(now));
      this.guard('incidents', () => this.updateIncidents(now));
      this.pruneMemory(alive);
    }
  }

  /** Which processes the watch follows: agents' processes and their parents, whose exit orphans them. */
  private updateWatches(): void {
    this.watchedParents = this.computeWatchedParents();
    for (const parent of this.lastChildren.keys())
      if (!this.watchedParents.has(parent)) this.lastChildren.delete(parent);
    const sampler = this.options.sampler;
    if (!sampler.watchExits) return;
    const targets = new Map<number, number>();
    const follow = (pid: number): void => {
      const p = this.procs.get(pid);
      if (p && p.exitedAt === null) targets.set(pid, p.record.startKey);
    };
    // Parents first: if descriptors run short, their exits matter most.
    for (const pid of this.watchedParents) follow(pid);
    for (const pid of this.agentPids) follow(pid);
    this.exitWatch = sampler.watchExits(targets);
  }

  private updateKnown(p: TrackedProcess, r: ProcessRecord, now: number): void {
    const before = p.record;
    const wasZombie = before.state === 'Z';
    // A new name means the process exec'd: it may have become an agent (a relaunch).
    const execd = before.name !== r.name;
    if (execd || before.ppid !== r.ppid || before.pgid !== r.pgid || before.sid !== r.sid)
      this.structureChanged = true;
    p.record = r;
    if (r.state === 'Z' && !wasZombie) this.markExited(p, now);
    if (execd && p.attribution && !p.attribution.isAgent && this.matcher.agentOf(r)) {
      p.attribution = { ...p.attribution, isAgent: true, agentPid: r.pid, source: 'agent' };
    }
    if (execd && !p.attribution && p.exitedAt === null) this.reclassify(p, now);
  }

  private addNewcomers(newcomers: readonly ProcessRecord[], now: number): void {
    if (newcomers.length === 0) return;
    this.structureChanged = true;
    // Context for attribution: the newcomers plus every live process we already attribute.
    const context: ProcessRecord[] = [...newcomers];
    for (const p of this.liveAgentProcs()) context.push(p.record);
    const attributions = attribute(context, this.matcher, this.memory);
    for (const r of newcomers) {
      const identity = identityKey(r.pid, r.startKey);
      const attribution = attributions.get(r.pid) ?? null;
      const p: TrackedProcess = {
        identity,
        record: r,
        firstSeenAt: now,
        exitedAt: r.state === 'Z' ? now : null,
        attribution,
        lineage: null,
        cpuPercent: null,
        runaway: initialRunawayState(),
        runawaySpans: [],
        orphanedAt: null,
        heldPipe: null,
        history: null,
        markers: [],
      };
      this.procs.set(r.pid, p);
      if (attribution) this.adopt(p, attribution, now);
      // Seen between fork and exec, it may still become an agent's: look again for a few polls.
      else if (p.exitedAt === null) this.probation.set(r.pid, PROBATION_POLLS);
    }
  }

  /** From now on this process is followed as an agent's. */
  private adopt(
    p: TrackedProcess,
    attribution: NonNullable<TrackedProcess['attribution']>,
    now: number,
  ): void {
    const r = p.record;
    p.attribution = attribution;
    this.structureChanged = true;
    this.lastActivityAt = performance.now();
    this.probation.delete(r.pid);
    if (p.exitedAt === null) this.agentPids.add(r.pid);
    p.lineage = this.lineageFor(r, attribution, now);
    this.memory.remember(p.identity, p.lineage, r.sid === r.pid || this.isToolCallSession(r.sid));
    p.markers.push({ at: r.startedAt, kind: 'started', label: `started: ${commandOf(r)}` });
    if (!attribution.isAgent) this.emit('process-started', p, now);
    if (!attribution.isAgent && this.structurallyOrphaned(p)) this.markOrphaned(p, now, 'found adopted');
  }

  /** A process on probation that exec'd since: classify it again. */
  private reclassify(p: TrackedProcess, now: number): void {
    const context: ProcessRecord[] = [p.record];
    for (const q of this.liveAgentProcs()) context.push(q.record);
    const attribution = attribute(context, this.matcher, this.memory).get(p.record.pid);
    if (attribution) this.adopt(p, attribution, now);
  }

  private isToolCallSession(sid: number): boolean {
    const leader = this.procs.get(sid);
    return leader !== undefined && leader.attribution !== null && !leader.attribution.isAgent;
  }

  private lineageFor(
    r: ProcessRecord,
    a: NonNullable<TrackedProcess['attribution']>,
    now: number,
  ): LineageEntry {
    const parent = this.procs.get(r.ppid);
    const parentLineage = parent?.attribution && !parent.attribution.isAgent ? parent.lineage : null;
    return {
      agent: a.agent,
      agentPid: a.agentPid,
      // A tool call's descendants keep the tool call's group and session as their origin.
      originPgid: parentLineage?.originPgid ?? r.pgid,
      originSid: parentLineage?.originSid ?? r.sid,
      originalPpid: r.ppid,
      ancestry: parent?.lineage ? [r.pid, ...parent.lineage.ancestry].slice(0, 32) : [r.pid, r.ppid],
      firstSeenAt: now,
    };
  }

  private structurallyOrphaned(p: TrackedProcess): boolean {
    const r = p.record;
    const live = (pid: number): TrackedProcess | undefined => {
      const q = this.procs.get(pid);
      return q && q.exitedAt === null ? q : undefined;
    };
    const parent = live(r.ppid);
    return isOrphan({
      attributed: p.attribution !== null,
      isAgent: p.attribution?.isAgent ?? false,
      ppid: r.ppid,
      parent: parent?.record,
      parentAttributed: parent?.attribution != null,
      groupLeaderAlive: live(r.pgid)?.record.pgid === r.pgid,
      groupLeaderIsAgent: live(r.pgid)?.record.pgid === r.pgid && live(r.pgid)?.attribution?.isAgent === true,
      sessionLeaderAlive: live(r.sid)?.record.sid === r.sid,
      observedReparent: false,
    });
  }

  private checkReparented(p: TrackedProcess, now: number): void {
    if (!p.attribution || p.attribution.isAgent || !p.lineage || p.orphanedAt !== null || p.exitedAt !== null)
      return;
    if (p.record.ppid !== p.lineage.originalPpid) {
      p.markers.push({
        at: now,
        kind: 'reparented',
        label: `reparented ${p.lineage.originalPpid} → ${p.record.ppid}`,
      });
      this.markOrphaned(p, now, `parent ${p.lineage.originalPpid} exited`);
    }
  }

  private markOrphaned(p: TrackedProcess, now: number, why: string): void {
    p.orphanedAt = now;
    this.emit('orphaned', p, now, {
      ppid: p.record.ppid,
      originalPpid: p.lineage?.originalPpid ?? null,
      reason: why,
    });
  }

  private markExited(p: TrackedProcess, now: number): void {
    if (p.exitedAt !== null && p.record.state !== 'Z') return;
    if (p.exitedAt === null) {
      p.exitedAt = now;
      this.structureChanged = true;
      if (p.attribution) this.lastActivityAt = performance.now();
      this.agentPids.delete(p.record.pid);
      if (p.attribution) {
        p.markers.push({ at: now, kind: 'exited', label: 'exited' });
        if (!p.attribution.isAgent) this.emit('process-exited', p, now);
        if (p.runaway.active) this.closeRunawaySpan(p, now);
      }
    }
    this.meter.forget(p.identity);
  }

  private trackCpu(p: TrackedProcess, percent: number | null, now: number): void {
    if (percent === null) return;
    p.history ??= new CpuHistory(this.baseMs);
    p.history.add(now, percent);
    if (p.attribution?.isAgent) return;
    const before = p.runaway.active;
    p.runaway = nextRunawayState(p.runaway, percent, now, this.settings.runaway);
    if (!before && p.runaway.active) {
      p.runawaySpans.push([p.runaway.hotSince ?? now, null]);
      this.emit('runaway', p, now, { cpuPercent: Math.round(percent * 10) / 10 });
    } else if (before && !p.runaway.active) {
      this.closeRunawaySpan(p, now);
      this.emit('runaway-cleared', p, now, { cpuPercent: Math.round(percent * 10) / 10 });
    }
  }

  private closeRunawaySpan(p: TrackedProcess, now: number): void {
    const span = p.runawaySpans[p.runawaySpans.length - 1];
    if (span && span[1] === null) span[1] = now;
  }

  /** Keeps agent groups' membership current; a PGID reused by a new group is a new group. */
  private updateGroups(now: number): void {
    const byPgid = new Map<number, TrackedProcess[]>();
    for (const p of this.liveAgentProcs()) {
      if (!p.attribution || p.exitedAt !== null || p.record.pgid <= 0) continue;
      const list = byPgid.get(p.record.pgid);
      if (list) list.push(p);
      else byPgid.set(p.record.pgid, [p]);
    }
    for (const [pgid, members] of byPgid) {
      let group = this.liveGroupByPgid.get(pgid);
      if (group && !members.some((m) => group!.live.has(m.identity))) {
        this.endGroup(group, now);
        group = undefined;
      }
      if (!group) group = this.startGroup(pgid, members, now);
      const current = new Set(members.map((m) => m.identity));
      for (const id of group.live) {
        if (current.has(id)) continue;
        const left = group.members.get(id);
        if (left && left.exitedAt === null && left.record.pgid !== pgid) {
          left.markers.push({
            at: now,
            kind: 'left-group',
            label: `left group ${pgid} for ${left.record.pgid}`,
          });
        }
      }
      group.live = current;
      for (const m of members) group.members.set(m.identity, m);
      const leader = members.find((m) => m.record.pid === pgid);
      if (!leader && group.leaderExitedAt === null) {
        group.leaderExitedAt = now;
        const former = [...group.members.values()].find((m) => m.record.pid === pgid);
        former?.markers.push({ at: now, kind: 'leader-exited', label: 'group leader exited' });
      }
    }
    for (const [pgid, group] of this.liveGroupByPgid) if (!byPgid.has(pgid)) this.endGroup(group, now);
    // Processes that left their tool call's group by setsid stay on its timeline.
    for (const members of byPgid.values()) {
      for (const p of members) {
        const origin =
          p.lineage && p.lineage.originPgid !== p.record.pgid
            ? this.liveGroupByPgid.get(p.lineage.originPgid)
            : undefined;
        origin?.members.set(p.identity, p);
      }
    }
    this.retainEnded(now);
  }

  private startGroup(pgid: number, members: TrackedProcess[], now: number): TrackedGroup {
    const anchor = chooseAnchor(
      pgid,
      members.map((m) => m.record),
    );
    const owner = members.find((m) => m.record.pid === pgid)?.attribution ?? members[0]!.attribution!;
    const group: TrackedGroup = {
      id: formatGroupId({ pgid, anchorPid: anchor.pid, anchorStartKey: anchor.startKey }),
      pgid,
      sid: anchor.sid,
      agent: { name: owner.agent, pid: owner.agentPid },
      startedAt: Math.min(...members.map((m) => m.record.startedAt)),
      endedAt: null,
      leaderExitedAt: null,
      members: new Map(members.map((m) => [m.identity, m])),
      live: new Set(members.map((m) => m.identity)),
      stopRequestedAt: null,
    };
    this.groups.set(group.id, group);
    this.liveGroupByPgid.set(pgid, group);
    this.emitGroup('group-started', group, now);
    this.rebindRestoredIncidents(group);
    return group;
  }

  private endGroup(group: TrackedGroup, now: number): void {
    group.endedAt = now;
    group.live = new Set();
    this.liveGroupByPgid.delete(group.pgid);
    this.emitGroup('group-ended', group, now);
    this.applyIncidentChanges(this.incidents.groupEnded(group, now), group, now);
  }

  private retainEnded(now: number): void {
    const retainMs = this.options.retainEndedMs ?? 24 * 3600_000;
    const ended = [...this.groups.values()].filter((g) => g.endedAt !== null);
    const excess = ended.length - MAX_ENDED_GROUPS;
    ended.sort((a, b) => a.endedAt! - b.endedAt!);
    ended.forEach((g, i) => {
      if (i < excess || now - g.endedAt! > retainMs) this.groups.delete(g.id);
    });
  }

  /**
   * Which tool-call groups to look at for held pipes. Reading descriptors costs far more than a stat,
   * and a pipe is left held when the wrapper exits: so a group is looked at on every poll for 10 s
   * after its leader exited, and a group already holding one every 30th poll, to see it let go.
   */
  private heldPipeCandidates(now: number): TrackedGroup[] {
    const recheck = this.polls % 30 === 0;
    const out: TrackedGroup[] = [];
    for (const group of this.liveGroupByPgid.values()) {
      if (group.leaderExitedAt === null || !group.agent) continue;
      const recent = now - group.leaderExitedAt <= 10_000;
      const holding = recheck && [...group.live].some((id) => group.members.get(id)?.heldPipe);
      if (recent || holding) out.push(group);
    }
    return out;
  }

  private checkHeldPipes(now: number): void {
    const find = this.options.findHeldPipes;
    if (!find) return;
    const groups = this.heldPipeCandidates(now);
    if (groups.length === 0) return;
    // Readers: the agent that started the tool call, or, when only its markers tell us which agent
    // it was, every live process of that agent (the pipe itself proves which one reads it).
    const agentsByName = new Map<string, number[]>();
    for (const p of this.liveAgentProcs()) {
      if (!p.attribution?.isAgent) continue;
      const list = agentsByName.get(p.attribution.agent) ?? [];
      list.push(p.record.pid);
      agentsByName.set(p.attribution.agent, list);
    }
    // Holders: agents' descendants in tool-call groups whose wrapper (the leader) has exited.
    const queries = new Map<string, { readers: number[]; holders: TrackedProcess[] }>();
    for (const group of groups) {
      const readers =
        group.agent!.pid !== null ? [group.agent!.pid] : (agentsByName.get(group.agent!.name) ?? []);
      if (readers.length === 0) continue;
      const key = readers.join(',');
      const query = queries.get(key) ?? { readers, holders: [] };
      for (const id of group.live) {
        const p = group.members.get(id);
        if (p && p.exitedAt === null && !p.attribution?.isAgent) query.holders.push(p);
      }
      queries.set(key, query);
    }
    for (const { readers, holders } of queries.values()) {
      if (holders.length === 0) continue;
      const held = new Map<number, HeldPipe>();
      for (const pipe of find({ readerPids: readers, holderPids: holders.map((h) => h.record.pid) }))
        if (!held.has(pipe.holderPid)) held.set(pipe.holderPid, pipe);
      for (const p of holders) this.applyHeldPipe(p, held.get(p.record.pid), now);
    }
  }

  private applyHeldPipe(p: TrackedProcess, pipe: HeldPipe | undefined, now: number): void {
    if (!pipe) {
      p.heldPipe = null;
      return;
    }
    if (p.heldPipe !== null) return;
    p.heldPipe = describeHeldPipe(pipe, (pid) => {
      const q = this.procs.get(pid);
      return q ? commandOf(q.record) : null;
    });
    this.emit('held-pipe', p, now, {
      description: p.heldPipe,
      inode: pipe.inode,
      holderFd: pipe.holderFd,
      readerPid: pipe.readerPid,
      readerFd: pipe.readerFd,
      kind: pipe.kind,
    });
  }

  /** Flags of a live group, from its live members' state (one pass: this runs for every group, every poll). */
  groupFlags(group: TrackedGroup): GroupFlag[] {
    let live = 0;
    let orphan = false;
    let leaderAlive = false;
    let runaway = false;
    let heldPipe = false;
    for (const id of group.live) {
      const p = group.members.get(id);
      if (!p || p.exitedAt !== null) continue;
      live++;
      orphan ||= p.orphanedAt !== null;
      leaderAlive ||= p.record.pid === group.pgid;
      runaway ||= p.runaway.active;
      heldPipe ||= p.heldPipe !== null;
    }
    const flags: GroupFlag[] = [];
    if (orphan) flags.push('orphan');
    if (group.leaderExitedAt !== null && live > 0 && !leaderAlive) flags.push('leaderless');
    if (runaway) flags.push('runaway');
    if (heldPipe) flags.push('held-pipe');
    return flags;
  }

  private updateIncidents(now: number): void {
    for (const group of this.liveGroupByPgid.values()) {
      if (group.members.size === 0) continue;
      let flags = this.groupFlags(group);
      if (flags.includes('leaderless') && this.isAgentGroup(group))
        flags = flags.filter((f) => f !== 'leaderless');
      this.applyIncidentChanges(this.incidents.update(group, flags, now), group, now);
    }
  }

  private isAgentGroup(group: TrackedGroup): boolean {
    for (const id of group.live) if (group.members.get(id)?.attribution?.isAgent) return true;
    return false;
  }

  private applyIncidentChanges(changes: readonly IncidentChange[], group: TrackedGroup, now: number): void {
    for (const { incident, change } of changes) {
      this.pendingIncidentSaves.set(incident.id, incident);
      if (change === 'updated') continue;
      this.pendingEvents.push({
        type: change === 'opened' ? 'incident-opened' : 'incident-closed',
        at: now,
        groupId: group.id,
        pid: incident.processes[0]?.pid ?? group.pgid,
        pgid: group.pgid,
        sid: group.sid,
        agent: group.agent,
        detail: {
          incidentId: incident.id,
          kind: incident.kind,
          end: incident.end,
          cpuSeconds: incident.cpuSeconds,
        },
      });
    }
  }

  private rebindRestoredIncidents(group: TrackedGroup): void {
    for (const incident of this.incidents.openIncidents()) {
      if (incident.pgid !== group.pgid || incident.groupId === group.id) continue;
      const sameProcess = incident.processes.some((ip) =>
        [...group.members.values()].some((m) => m.record.pid === ip.pid && m.record.startKey === ip.startKey),
      );
      if (sameProcess) this.incidents.rebind(incident, group);
    }
  }

  private closeRestoredIncidents(): void {
    const now = this.now();
    const alive = (incident: Incident): boolean =>
      incident.processes.some((ip) => {
        const p = this.procs.get(ip.pid);
        return p !== undefined && p.record.startKey === ip.startKey && p.exitedAt === null;
      }) || this.liveGroupByPgid.get(incident.pgid)?.id === incident.groupId;
    for (const { incident } of this.incidents.closeRestoredIf(alive, now)) {
      this.pendingIncidentSaves.set(incident.id, incident);
      this.pendingEvents.push({
        type: 'incident-closed',
        at: now,
        groupId: incident.groupId,
        pid: incident.processes[0]?.pid ?? incident.pgid,
        pgid: incident.pgid,
        sid: incident.sid,
        agent: incident.agent ? { name: incident.agent, pid: incident.agentPid } : null,
        detail: {
          incidentId: incident.id,
          kind: incident.kind,
          end: incident.end,
          cpuSeconds: incident.cpuSeconds,
        },
      });
    }
  }

  private pruneMemory(alive: ReadonlySet<number> | null): void {
    if (!alive) return;
    const identities = new Set<string>();
    const pgids = new Set<number>();
    const sids = new Set<number>();
    for (const p of this.procs.values()) {
      if (p.exitedAt !== null) continue;
      identities.add(p.identity);
      pgids.add(p.record.pgid);
      sids.add(p.record.sid);
    }
    this.memory.prune(identities, pgids, sids);
  }

  private computeWatchedParents(): Set<number> {
    const watched = new Set<number>();
    for (const p of this.liveAgentProcs()) {
      if (!p.attribution || p.exitedAt !== null) continue;
      const r = p.record;
      if (p.attribution.isAgent || r.pid === r.sid || r.pid === r.pgid) watched.add(r.pid);
      if (r.ppid > 1) {
        const parent = this.procs.get(r.ppid);
        if (parent && parent.exitedAt === null) watched.add(r.ppid);
      }
    }
    return watched;
  }

  private emit(
    type: MonitorEventType,
    p: TrackedProcess,
    now: number,
    detail?: Record<string, string | number | boolean | null>,
  ): void {
    const group = this.liveGroupByPgid.get(p.record.pgid);
    const event: MonitorEvent = {
      type,
      at: now,
      groupId: group?.id ?? this.provisionalGroupId(p),
      pid: p.record.pid,
      pgid: p.record.pgid,
      sid: p.record.sid,
      agent: p.attribution ? { name: p.attribution.agent, pid: p.attribution.agentPid } : null,
      command: commandOf(p.record),
    };
    if (detail) event.detail = detail;
    this.pendingEvents.push(event);
  }

  private provisionalGroupId(p: TrackedProcess): string {
    const members = [...this.procs.values()].filter(
      (q) => q.exitedAt === null && q.record.pgid === p.record.pgid,
    );
    const anchor = chooseAnchor(
      p.record.pgid,
      (members.length > 0 ? members : [p]).map((m) => m.record),
    );
    return formatGroupId({ pgid: p.record.pgid, anchorPid: anchor.pid, anchorStartKey: anchor.startKey });
  }

  private emitGroup(type: MonitorEventType, group: TrackedGroup, now: number): void {
    this.pendingEvents.push({
      type,
      at: now,
      groupId: group.id,
      pid: group.pgid,
      pgid: group.pgid,
      sid: group.sid,
      agent: group.agent,
    });
  }

  /** Delivers the events of one run in order, and saves the incidents it changed in one write. */
  private flush(): void {
    // Events from a newly started group's members carry the group id that now exists.
    for (const e of this.pendingEvents) {
      const group = this.liveGroupByPgid.get(e.pgid);
      if (group && e.type !== 'group-ended' && !this.groups.get(e.groupId)) e.groupId = group.id;
    }
    const events = this.pendingEvents;
    this.pendingEvents = [];
    if (this.pendingIncidentSaves.size > 0 && this.options.incidents) {
      const batch = [...this.pendingIncidentSaves.values()];
      this.pendingIncidentSaves.clear();
      this.guard('incident storage', () => {
        if (!this.options.incidents!.sink.save(batch))
          this.storageProblem = 'incidents could not be saved durably';
      });
    }
    for (const e of events) for (const l of this.listeners) this.guard('event listener', () => l(e));
    if (events.length > 0 || this.tickListeners.size > 0)
      for (const l of this.tickListeners) this.guard('tick listener', l);
  }

  // Read access for the snapshot and timeline builders.
  trackedProcesses(): IterableIterator<TrackedProcess> {
    return this.procs.values();
  }

  trackedGroups(): IterableIterator<TrackedGroup> {
    return this.groups.values();
  }

  groupById(id: string): TrackedGroup | undefined {
    return this.groups.get(id);
  }

  liveGroup(pgid: number): TrackedGroup | undefined {
    return this.liveGroupByPgid.get(pgid);
  }

  openIncidents(): Incident[] {
    return this.incidents.openIncidents();
  }

  /** Records that a user asked to stop this group, and the signals sent, for its timeline and incidents. */
  noteSignal(groupId: string, signal: string, target: string, result: string, at: number): void {
    const group = this.groups.get(groupId);
    if (!group) return;
    group.stopRequestedAt ??= at;
    for (const id of group.live) {
      group.members.get(id)?.markers.push({ at, kind: 'signal', label: `${signal} → ${target} (${result})` });
    }
    this.pendingEvents.push({
      type: 'signal-sent',
      at,
      groupId,
      pid: group.pgid,
      pgid: group.pgid,
      sid: group.sid,
      agent: group.agent,
      detail: { signal, target, result },
    });
    this.flush();
  }
}
