import type { Settings } from '../../../../shared/model';
import type { AgentMatcher } from '../../analysis/agent-matcher';
import { attribute } from '../../analysis/attribution';
import { CpuMeter } from '../../analysis/cpu-meter';
import { commandOf } from '../../analysis/grouping';
import { LineageMemory, type LineageEntry } from '../../analysis/lineage-memory';
import { isOrphan, type OrphanEvidence } from '../../analysis/orphans';
import { initialRunawayState } from '../../analysis/runaway';
import { identityKey, pidOfIdentity } from '../../model/identity';
import type { ProcessRecord } from '../../model/process-record';
import { CpuHistory } from './cpu-history';
import { closeRunawaySpan, RunawayCheck } from './runaway-check';
import type { MonitorState } from './monitor-state';
import { valuesDiffer } from './record-values';
import type { TrackedProcess } from './tracked';

const PROBATION_POLLS = 3;
/**
 * An agent's process found unchanged by `after` reads in a row is idle, and re-read one quiet poll in
 * `every` from then on: the longer it stays idle, the seldomer (after about 160 polls, every 20th).
 */
export const IDLE_STEPS: readonly { after: number; every: number }[] = [
  { after: 10, every: 5 },
  { after: 20, every: 10 },
  { after: 30, every: 20 },
];

/** One poll in how many an agent's process found unchanged by `unchanged` reads in a row is re-read. */
export function idleReadEvery(unchanged: number): number {
  let every = 1;
  for (const step of IDLE_STEPS) if (unchanged >= step.after) every = step.every;
  return every;
}

export interface ProcessTableContext {
  settings(): Settings;
  matcher(): AgentMatcher;
  /** Wall-clock origin of CPU histories. */
  baseMs: number;
}

/**
 * The tracked processes: folds sampled records in, classifies newcomers (attribution, lineage),
 * notices exits, orphans and runaways, and emits their events.
 */
export class ProcessTable {
  private readonly memory = new LineageMemory();
  private readonly meter = new CpuMeter();
  /** Newcomers no agent owned when first seen, re-read for a few polls (they may exec into one). */
  private readonly probation = new Map<number, number>();
  /** How many reads in a row found each agent's process unchanged (see agentPidsDue). */
  private readonly unchangedReads = new WeakMap<TrackedProcess, number>();
  /**
   * The structure epoch lineage was last pruned at: forgetEnded asks only whether each remembered identity
   * is still there, in which group and session, and while the structure stands there is nothing to forget.
   */
  private prunedAtEpoch = -1;

  private readonly runaways: RunawayCheck;

  constructor(
    private readonly state: MonitorState,
    private readonly context: ProcessTableContext,
  ) {
    this.runaways = new RunawayCheck(state, () => context.settings().runaway);
  }

  /** The pids on probation, each counting one more look. */
  takeProbation(): number[] {
    const pids: number[] = [];
    for (const [pid, left] of this.probation) {
      pids.push(pid);
      if (left <= 1) this.probation.delete(pid);
      else this.probation.set(pid, left - 1);
    }
    return pids;
  }

  /**
   * Folds a batch of records into the tracked state. `alive` (a full pid list) or `readPids` (the pids
   * asked for) tells which tracked processes are gone.
   */
  ingest(
    records: readonly ProcessRecord[],
    alive: ReadonlySet<number> | null,
    readPids: ReadonlySet<number> | null,
    now: number,
    isPoll: boolean,
  ): void {
    const procs = this.state.procs;
    const seen = new Set<number>();
    const newcomers: ProcessRecord[] = [];
    const updated: TrackedProcess[] = [];
    for (const r of records) {
      seen.add(r.pid);
      const known = procs.get(r.pid);
      if (known && known.record.startKey === r.startKey) {
        this.updateKnown(known, r, now);
        updated.push(known);
      } else {
        if (known) this.markExited(known, now);
        newcomers.push(r);
      }
    }
    const candidates = alive ? [...procs.keys()] : readPids ? [...readPids] : [];
    for (const pid of candidates) {
      const p = procs.get(pid);
      const gone = alive ? !alive.has(pid) : !seen.has(pid);
      if (p && gone) {
        this.markExited(p, now);
        procs.delete(pid);
      }
    }
    newcomers.sort((a, b) => a.startKey - b.startKey || a.pid - b.pid);
    this.addNewcomers(newcomers, now);

    for (const r of records) {
      const p = procs.get(r.pid);
      if (!p || p.record !== r) continue;
      const tracked = isPoll && p.attribution !== null && p.exitedAt === null;
      const readAt = tracked ? this.meter.readAt(p.identity) : undefined;
      const percent = this.meter.reading(p.identity, r.cpuTimeMs, now);
      if (percent !== null && percent !== p.cpuPercent) {
        p.cpuPercent = percent;
        this.state.valueChanges++;
      }
      if (tracked) this.trackCpu(p, percent, now, readAt);
    }
    for (const p of updated) this.checkReparented(p, now);
  }

  /** After a sleep or a stall: CPU readings and hot streaks start afresh, so the gap is not read as load. */
  rebaseline(): void {
    this.meter.rebaseline();
    this.runaways.rebaseline();
    for (const p of this.state.procs.values()) if (!p.runaway.active) p.runaway = initialRunawayState();
  }

  /**
   * The agents' processes a quiet poll re-reads: all but the idle ones (unchanged over their last
   * reads, see IDLE_STEPS), each read one poll in its step's `every`, spread over the polls by pid.
   * For the caller to use only while exits are followed for all of them: an exit, and the reparenting
   * of its children, then wake a look at once, and anything else a process does needs it to run, after
   * which it is read every poll again. What idleness costs is resolution: the first seconds of a
   * process waking up are measured as one average over the polls since its last read (a runaway's hot
   * streak is dated back to when it must have started: provenRunningMs).
   */
  agentPidsDue(poll: number): number[] {
    const pids: number[] = [];
    for (const pid of this.state.agentPids) {
      const p = this.state.procs.get(pid);
      const every = p === undefined ? 1 : idleReadEvery(this.unchangedReads.get(p) ?? 0);
      if (every === 1 || (poll + pid) % every === 0) pids.push(pid);
    }
    return pids;
  }

  /**
   * Lineage is forgotten for identities that ended, and for groups and sessions none of the identities
   * seen in them is in any more: their numbers may be handed out again, to strangers.
   */
  forgetEnded(): void {
    if (this.prunedAtEpoch === this.state.structureEpoch) return;
    this.prunedAtEpoch = this.state.structureEpoch;
    const procs = this.state.procs;
    this.memory.forgetEnded((identity) => {
      const p = procs.get(pidOfIdentity(identity));
      return p && p.identity === identity && p.exitedAt === null ? p.record : null;
    });
  }

  private updateKnown(p: TrackedProcess, r: ProcessRecord, now: number): void {
    const before = p.record;
    const wasZombie = before.state === 'Z';
    // A new name means the process exec'd: it may have become an agent (a relaunch). So does an argv
    // first read empty under the new name, inside execve's window (no markers could be read then either):
    // what it is shows only now.
    const execd = before.name !== r.name || (before.argv.length === 0 && r.argv.length > 0);
    const changed = before !== r && valuesDiffer(before, r);
    if (changed) this.state.valueChanges++;
    if (p.attribution) this.unchangedReads.set(p, changed ? 0 : (this.unchangedReads.get(p) ?? 0) + 1);
    if (execd || before.ppid !== r.ppid || before.pgid !== r.pgid || before.sid !== r.sid)
      this.state.structureChanged = true;
    p.record = r;
    if (r.state === 'Z' && !wasZombie) this.markExited(p, now);
    if (!execd || p.exitedAt !== null) return;
    this.noteMarkedToolCall(p);
    const isAgentNow = this.context.matcher().agentOf(r) !== null;
    if (p.attribution?.isAgent && !isAgentNow) this.demote(p, now);
    else if (p.attribution && !p.attribution.isAgent && isAgentNow) {
      p.attribution = { ...p.attribution, isAgent: true, agentPid: r.pid, source: 'agent' };
    } else if (!p.attribution) this.reclassify(p, now);
  }

  /**
   * A process taken for an agent that exec'd into something else was read between an agent's fork
   * and its exec (a tool call's shell, still bearing the agent's name and argv): it never was the
   * agent. What was concluded from that reading is forgotten and it is classified again, as what it is.
   */
  private demote(p: TrackedProcess, now: number): void {
    if (p.lineage) this.memory.forget(p.identity, p.lineage);
    p.attribution = null;
    p.lineage = null;
    p.markers = [];
    this.state.agentPids.delete(p.record.pid);
    this.state.structureChanged = true;
    this.reclassify(p, now);
  }

  private addNewcomers(newcomers: readonly ProcessRecord[], now: number): void {
    if (newcomers.length === 0) return;
    this.state.structureChanged = true;
    // Context for attribution: the newcomers plus every live process we already attribute.
    const context: ProcessRecord[] = [...newcomers];
    for (const p of this.state.liveAgentProcs()) context.push(p.record);
    this.forgetEnded();
    const attributions = attribute(context, this.context.matcher(), this.memory);
    for (const r of newcomers) {
      const identity = identityKey(r.pid, r.startKey);
      const attribution = attributions.get(r.pid) ?? null;
      const p: TrackedProcess = {
        identity,
        record: r,
        firstSeenAt: now,
        exitedAt: null,
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
      this.state.procs.set(r.pid, p);
      if (attribution) this.adopt(p, attribution, now);
      // A zombie when first seen started and exited between two looks: both are reported.
      if (r.state === 'Z') this.markExited(p, now);
      // Seen between fork and exec, it may still become an agent's: look again for a few polls.
      else if (!attribution) this.probation.set(r.pid, PROBATION_POLLS);
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
    this.state.structureChanged = true;
    this.probation.delete(r.pid);
    if (p.exitedAt === null) this.state.agentPids.add(r.pid);
    p.lineage = this.lineageFor(r, attribution, now);
    this.memory.remember(p.identity, p.lineage, r.sid === r.pid || this.isToolCallSession(r.sid));
    this.noteMarkedToolCall(p);
    this.state.lastActivityAt = performance.now();
    const storm = attribution.isAgent ? undefined : this.state.stormingGroupOf(p);
    if (storm) {
      // A storm's births fill neither the timeline nor the events: its summary counts them.
      p.summarized = true;
      storm.spawns!.unannounced++;
    } else {
      p.markers.push({ at: r.startedAt, kind: 'started', label: `started: ${commandOf(r)}` });
      if (!attribution.isAgent) this.state.emit('process-started', p, now);
    }
    // When first seen, no reparenting was observed yet: only the structure can show an orphan.
    if (isOrphan(this.orphanEvidence(p, false))) this.markOrphaned(p, now, 'found adopted');
  }

  /**
   * A descendant of a live agent that carries that agent's own markers shows that the agent marks its
   * tool calls (see agentsMarkingToolCalls). Read after exec too: between fork and exec a child still
   * has its agent's environment, which may lack the markers the agent sets for tool calls.
   */
  private noteMarkedToolCall(p: TrackedProcess): void {
    const a = p.attribution;
    if (!a || a.isAgent || a.agentPid === null) return;
    const agent = this.state.procs.get(a.agentPid);
    if (!agent?.attribution?.isAgent || agent.exitedAt !== null || agent.attribution.agent !== a.agent)
      return;
    if (this.context.matcher().markersOf(p.record.markers)?.agent === a.agent)
      this.state.agentsMarkingToolCalls.add(agent.identity);
  }

  /** A process on probation that exec'd since: classify it again. */
  private reclassify(p: TrackedProcess, now: number): void {
    const context: ProcessRecord[] = [p.record];
    for (const q of this.state.liveAgentProcs()) context.push(q.record);
    this.forgetEnded();
    const attribution = attribute(context, this.context.matcher(), this.memory).get(p.record.pid);
    if (attribution) this.adopt(p, attribution, now);
  }

  private isToolCallSession(sid: number): boolean {
    const leader = this.state.procs.get(sid);
    return leader !== undefined && leader.attribution !== null && !leader.attribution.isAgent;
  }

  private lineageFor(
    r: ProcessRecord,
    a: NonNullable<TrackedProcess['attribution']>,
    now: number,
  ): LineageEntry {
    const parent = this.state.procs.get(r.ppid);
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

  private orphanEvidence(p: TrackedProcess, observedReparent: boolean): OrphanEvidence {
    const r = p.record;
    const parent = this.state.procs.get(r.ppid);
    const parentAlive = parent !== undefined && parent.exitedAt === null;
    return {
      attributed: p.attribution !== null,
      isAgent: p.attribution?.isAgent ?? false,
      ppid: r.ppid,
      parent: parentAlive ? parent.record : undefined,
      parentAttributed: parentAlive && parent.attribution !== null,
      observedReparent,
    };
  }

  /**
   * A process seen with a parent other than the one it had when first seen was reparented: its
   * parent exited. Only this is looked at after adoption (the structure was looked at then).
   */
  private checkReparented(p: TrackedProcess, now: number): void {
    if (!p.lineage || p.orphanedAt !== null || p.exitedAt !== null) return;
    if (p.record.ppid === p.lineage.originalPpid) return;
    if (!isOrphan(this.orphanEvidence(p, true))) return;
    p.markers.push({
      at: now,
      kind: 'reparented',
      label: `reparented ${p.lineage.originalPpid} → ${p.record.ppid}`,
    });
    this.markOrphaned(p, now, `parent ${p.lineage.originalPpid} exited`);
  }

  private markOrphaned(p: TrackedProcess, now: number, why: string): void {
    p.orphanedAt = now;
    // A storm's summarized births raise no flag of their own: its incident is open already.
    if (p.summarized) return;
    this.state.flagRaised = true;
    this.state.emit('orphaned', p, now, {
      ppid: p.record.ppid,
      originalPpid: p.lineage?.originalPpid ?? null,
      reason: why,
    });
  }

  private markExited(p: TrackedProcess, now: number): void {
    if (p.exitedAt !== null && p.record.state !== 'Z') return;
    if (p.exitedAt === null) {
      p.exitedAt = now;
      this.state.structureChanged = true;
      if (p.attribution) this.state.lastActivityAt = performance.now();
      this.state.agentPids.delete(p.record.pid);
      this.state.agentsMarkingToolCalls.delete(p.identity);
      if (p.summarized) {
        const storm = this.state.stormingGroupOf(p);
        if (storm) storm.spawns!.unannounced++;
        if (p.runaway.active) closeRunawaySpan(p, now);
      } else if (p.attribution) {
        p.markers.push({ at: now, kind: 'exited', label: 'exited' });
        if (!p.attribution.isAgent) this.state.emit('process-exited', p, now);
        if (p.runaway.active) closeRunawaySpan(p, now);
      }
    }
    this.meter.forget(p.identity);
    this.runaways.forget(p.identity);
  }

  private trackCpu(p: TrackedProcess, percent: number | null, now: number, readAt: number | undefined): void {
    if (percent === null) return;
    if (!p.summarized) (p.history ??= new CpuHistory(this.context.baseMs)).add(now, percent);
    if (!p.attribution?.isAgent) this.runaways.read(p, percent, now, readAt);
  }
}
