import type { Incident, MonitorEvent, MonitorEventType } from '../../../../shared/model';
import { chooseAnchor, formatGroupId } from '../../analysis/group-id';
import { commandOf } from '../../analysis/grouping';
import type { TrackedGroup, TrackedProcess } from './tracked';

/**
 * What the monitor's parts share: the tracked processes and groups, and the events and incident
 * saves of the current run, delivered together when the run ends.
 */
export class MonitorState {
  readonly procs = new Map<number, TrackedProcess>();
  readonly groups = new Map<string, TrackedGroup>();
  readonly liveGroupByPgid = new Map<number, TrackedGroup>();
  /** pids of live agent-attributed processes: the few the monitor looks at every poll. */
  readonly agentPids = new Set<number>();
  private structureDirty = true;
  /**
   * Moves each time the structure is marked changed: what is derived from the tracked processes' presence,
   * parents, groups, sessions and attribution alone stands while it stays put.
   */
  structureEpoch = 0;
  /**
   * Moves each time the kernel's pid counter may have come back round (it went back, jumped too far to
   * follow, or a look listed the table instead): while it stands, no pid was handed out twice. Null where
   * the counter is not followed (macOS).
   */
  pidEpoch: number | null = null;
  private marksMemo = { epoch: -1, every: false };
  /**
   * Counts changes a view shows that the structure does not: a record read with other values, a CPU
   * reading that moved. Reads that find the same values leave it alone.
   */
  valueChanges = 0;
  /**
   * Identities of agents seen to mark their tool calls: a descendant carried that agent's environment
   * markers. Whatever such an agent leaves behind is attributed by its markers alone, without lineage.
   */
  readonly agentsMarkingToolCalls = new Set<string>();
  /** Monotonic time (performance.now()) an agent's process was last born or exited. */
  lastActivityAt = -Infinity;
  polls = 0;
  /**
   * When the first poll looked (it sweeps the whole table); null before it. A process first seen after
   * it was born while Corral watched: what happened to it was seen within a poll, not merely noticed.
   */
  watchingSince: number | null = null;
  pendingEvents: MonitorEvent[] = [];
  /**
   * A process was found orphaned, or a group's leader gone, at this look: a flag rose, and its group's
   * incident opens at this look rather than at the next poll (which the group may not live to see).
   */
  flagRaised = false;
  /** Events emitted for processes in no group yet, with their processes (see resolveGroupIds). */
  private readonly unresolved: Array<{ event: MonitorEvent; p: TrackedProcess }> = [];
  readonly pendingIncidentSaves = new Map<string, Incident>();

  /** Whether any live agent-attributed process passes `test`: liveAgentProcs().some without its array. */
  someLiveAgentProc(test: (p: TrackedProcess) => boolean): boolean {
    for (const pid of this.agentPids) {
      const p = this.procs.get(pid);
      if (p && p.exitedAt === null && test(p)) return true;
    }
    return false;
  }

  /** Set when processes came, went, or changed parent, group or session: groups and watches need a look. */
  get structureChanged(): boolean {
    return this.structureDirty;
  }

  set structureChanged(changed: boolean) {
    if (changed) this.structureEpoch++;
    this.structureDirty = changed;
  }

  /**
   * Whether every live agent was seen to mark its tool calls. A quiet agent then costs no wake-ups between
   * polls (watch-pace.ts): what a tool call leaves behind carries the agent's markers, so the next poll (its
   * new pids) attributes it, and flags it orphaned if its shell already exited, without having seen the
   * shell. Exits of what was seen still wake a look at once (pidfds), and a birth makes the watch busy
   * again. Asked on every wake-up; agents' processes, their attribution and agentsMarkingToolCalls change
   * only with the structure, so the agents are walked again only once it moved.
   */
  everyAgentMarksToolCalls(): boolean {
    const memo = this.marksMemo;
    if (memo.epoch === this.structureEpoch) return memo.every;
    const marking = this.agentsMarkingToolCalls;
    memo.every =
      marking.size > 0 &&
      !this.someLiveAgentProc((p) => p.attribution?.isAgent === true && !marking.has(p.identity));
    memo.epoch = this.structureEpoch;
    return memo.every;
  }

  /**
   * The storming group a process belongs to: its own group, or the tool call's group it left (births
   * are counted there too). Storming: flagged spawn-storm, or over a rate threshold and waiting out the
   * window for the flag. What is born into one is summarized by the storm, not announced.
   */
  stormingGroupOf(p: TrackedProcess): TrackedGroup | undefined {
    const own = this.liveGroupByPgid.get(p.record.pgid);
    if (isStorming(own)) return own;
    const originPgid = p.lineage?.originPgid;
    const origin = originPgid === undefined ? undefined : this.liveGroupByPgid.get(originPgid);
    return isStorming(origin) ? origin : undefined;
  }

  /** Whether any live group storms now (see stormingGroupOf). */
  someGroupStorming(): boolean {
    for (const g of this.liveGroupByPgid.values()) if (isStorming(g)) return true;
    return false;
  }

  liveAgentProcs(): TrackedProcess[] {
    const live: TrackedProcess[] = [];
    for (const pid of this.agentPids) {
      const p = this.procs.get(pid);
      if (p && p.exitedAt === null) live.push(p);
    }
    return live;
  }

  emit(
    type: MonitorEventType,
    p: TrackedProcess,
    now: number,
    detail?: Record<string, string | number | boolean | null>,
  ): void {
    // The live group under this PGID only if the process was seen in it: a PGID alone may be reused.
    const live = this.liveGroupByPgid.get(p.record.pgid);
    const group = live?.members.has(p.identity) ? live : undefined;
    const event: MonitorEvent = {
      type,
      at: now,
      groupId: group?.id ?? '',
      pid: p.record.pid,
      pgid: p.record.pgid,
      sid: p.record.sid,
      agent: p.attribution ? { name: p.attribution.agent, pid: p.attribution.agentPid } : null,
      command: commandOf(p.record),
    };
    if (detail) event.detail = detail;
    if (!group) this.unresolved.push({ event, p });
    this.pendingEvents.push(event);
  }

  emitGroup(
    type: MonitorEventType,
    group: TrackedGroup,
    now: number,
    detail?: Record<string, string | number | boolean | null>,
  ): void {
    this.pendingEvents.push({
      type,
      at: now,
      groupId: group.id,
      pid: group.pgid,
      pgid: group.pgid,
      sid: group.sid,
      agent: group.agent,
      ...(detail ? { detail } : {}),
    });
  }

  /** The run's events, in order; events from a newly started group's members carry its id. */
  takeEvents(): MonitorEvent[] {
    this.resolveGroupIds();
    for (const e of this.pendingEvents) {
      const group = this.liveGroupByPgid.get(e.pgid);
      if (group && e.type !== 'group-ended' && !this.groups.get(e.groupId)) e.groupId = group.id;
    }
    const events = this.pendingEvents;
    this.pendingEvents = [];
    return events;
  }

  /**
   * Events of processes that were in no group when emitted: the group each joined during the run, else
   * the id its group will have, found from the table once per PGID (a scan of the whole table: at every
   * event, a fork storm's first second spent 100 ms of `watch`'s CPU on it).
   */
  private resolveGroupIds(): void {
    if (this.unresolved.length === 0) return;
    const provisional = new Map<number, string>();
    for (const { event, p } of this.unresolved) {
      const live = this.liveGroupByPgid.get(p.record.pgid);
      if (live?.members.has(p.identity)) {
        event.groupId = live.id;
        continue;
      }
      let id = provisional.get(p.record.pgid);
      if (id === undefined) provisional.set(p.record.pgid, (id = this.provisionalGroupId(p)));
      event.groupId = id;
    }
    this.unresolved.length = 0;
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
}

function isStorming(group: TrackedGroup | undefined): group is TrackedGroup {
  const state = group?.spawns?.state;
  return state !== undefined && (state.active || state.highSince !== null);
}
