import { initialMemoryHogState } from '../../analysis/memory-hog';
import { chooseAnchor, formatGroupId } from '../../analysis/group-id';
import type { MonitorState } from './monitor-state';
import type { TrackedGroup, TrackedProcess } from './tracked';

const MAX_ENDED_GROUPS = 500;
/**
 * Exited members a group keeps for its timeline past its first ones: a loop's thousands of short lives
 * would otherwise each stay (lanes, markers, CPU histories) as long as the group, and 24 h after.
 */
const KEPT_EXITED_MEMBERS = 200;
/** The first members stay whatever follows (the tool call's shell, its first children). */
const KEPT_FIRST_MEMBERS = 20;
const DEFAULT_RETAIN_ENDED_MS = 24 * 3600_000;

/** What the tracker tells the incidents of a group's life (incidents/incident-glue.ts listens). */
export interface GroupIncidents {
  /** The id an open incident already gave this group, or null. */
  recordedIdFor(pgid: number, members: readonly { pid: number; startKey: number }[]): string | null;
  /** A new group: an open incident on its PGID whose processes are its own becomes its. */
  rebind(group: TrackedGroup): void;
  groupEnded(group: TrackedGroup, now: number): void;
}

/** Agent groups from first sight until they empty; a PGID reused by a new group is a new group. */
export class GroupTracker {
  constructor(
    private readonly state: MonitorState,
    private readonly incidents: GroupIncidents,
    private readonly retainEndedMs = DEFAULT_RETAIN_ENDED_MS,
  ) {}

  /** Keeps agent groups' membership current. */
  update(now: number): void {
    const state = this.state;
    const byPgid = new Map<number, TrackedProcess[]>();
    for (const p of state.liveAgentProcs()) {
      if (!p.attribution || p.exitedAt !== null || p.record.pgid <= 0) continue;
      const list = byPgid.get(p.record.pgid);
      if (list) list.push(p);
      else byPgid.set(p.record.pgid, [p]);
    }
    for (const [pgid, members] of byPgid) {
      let group = state.liveGroupByPgid.get(pgid);
      if (group && !this.stillHolds(group, members)) {
        this.end(group, now);
        group = undefined;
      }
      if (!group) group = this.start(pgid, members, now);
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
      group.liveAtPidEpoch = state.pidEpoch;
      for (const m of members) group.members.set(m.identity, m);
      forgetOldExited(group);
      const leader = members.find((m) => m.record.pid === pgid);
      // The leader's attribution changes only when it was misread (a tool call's shell taken for the
      // agent between fork and exec): the group then belongs to the agent it really came from.
      const owner = leader?.attribution;
      if (owner && (group.agent?.name !== owner.agent || group.agent.pid !== owner.agentPid))
        group.agent = { name: owner.agent, pid: owner.agentPid };
      if (!leader && group.leaderExitedAt === null) {
        group.leaderExitedAt = now;
        state.flagRaised = true;
        const former = [...group.members.values()].find((m) => m.record.pid === pgid);
        former?.markers.push({ at: now, kind: 'leader-exited', label: 'group leader exited' });
      }
    }
    for (const [pgid, group] of state.liveGroupByPgid) if (!byPgid.has(pgid)) this.end(group, now);
    // Processes that left their tool call's group by setsid stay on its timeline.
    for (const members of byPgid.values()) {
      for (const p of members) {
        const origin =
          p.lineage && p.lineage.originPgid !== p.record.pgid
            ? state.liveGroupByPgid.get(p.lineage.originPgid)
            : undefined;
        origin?.members.set(p.identity, p);
      }
    }
    this.retainEnded(now);
  }

  /**
   * Whether these members are still the group first seen under their PGID: one of them was seen in it,
   * and the process now holding the PGID was not born after the group started (a group's creator holds
   * its number; one born later holds the number reused, by a new group, while an old member's exit was
   * not yet seen).
   */
  private stillHolds(group: TrackedGroup, members: readonly TrackedProcess[]): boolean {
    // Its number cannot have gone to a new group: a PGID stays taken while any process is in the group,
    // and a freed pid is handed out again only once the counter comes round (a leader that exited while
    // its first child was not read yet, read alone at the next look, is the same group).
    const epoch = this.state.pidEpoch;
    if (epoch !== null && group.liveAtPidEpoch === epoch) return true;
    if (!members.some((m) => group.live.has(m.identity))) return false;
    const holder = members.find((m) => m.record.pid === group.pgid);
    return !holder || group.members.has(holder.identity) || holder.record.startedAt <= group.startedAt;
  }

  private start(pgid: number, members: TrackedProcess[], now: number): TrackedGroup {
    const records = members.map((m) => m.record);
    const anchor = chooseAnchor(pgid, records);
    const owner = members.find((m) => m.record.pid === pgid)?.attribution ?? members[0]!.attribution!;
    const group: TrackedGroup = {
      // A group first seen elsewhere keeps the id it was given there (one group, one id in every view).
      id:
        this.incidents.recordedIdFor(pgid, records) ??
        formatGroupId({ pgid, anchorPid: anchor.pid, anchorStartKey: anchor.startKey }),
      pgid,
      sid: anchor.sid,
      agent: { name: owner.agent, pid: owner.agentPid },
      startedAt: Math.min(...members.map((m) => m.record.startedAt)),
      endedAt: null,
      leaderExitedAt: null,
      members: new Map(members.map((m) => [m.identity, m])),
      live: new Set(members.map((m) => m.identity)),
      stopRequestedAt: null,
      memory: initialMemoryHogState(),
    };
    this.state.groups.set(group.id, group);
    this.state.liveGroupByPgid.set(pgid, group);
    this.state.emitGroup('group-started', group, now);
    this.incidents.rebind(group);
    return group;
  }

  private end(group: TrackedGroup, now: number): void {
    group.endedAt = now;
    group.live = new Set();
    this.state.liveGroupByPgid.delete(group.pgid);
    this.state.emitGroup('group-ended', group, now);
    this.incidents.groupEnded(group, now);
  }

  private retainEnded(now: number): void {
    const groups = this.state.groups;
    const ended = [...groups.values()].filter((g) => g.endedAt !== null);
    const excess = ended.length - MAX_ENDED_GROUPS;
    ended.sort((a, b) => a.endedAt! - b.endedAt!);
    ended.forEach((g, i) => {
      if (i < excess || now - g.endedAt! > this.retainEndedMs) groups.delete(g.id);
    });
  }
}

/** Drops the oldest exited members past the first ones, so a group keeps at most KEPT_EXITED_MEMBERS. */
function forgetOldExited(group: TrackedGroup): void {
  let excess = group.members.size - group.live.size - KEPT_EXITED_MEMBERS - KEPT_FIRST_MEMBERS;
  if (excess <= 0) return;
  let index = 0;
  for (const [identity, p] of group.members) {
    if (excess <= 0) return;
    if (index++ < KEPT_FIRST_MEMBERS || p.exitedAt === null) continue;
    group.members.delete(identity);
    excess--;
  }
}
