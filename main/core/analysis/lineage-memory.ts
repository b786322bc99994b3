import { identityKey, startKeyOfIdentity } from '../model/identity';

/** What Corral learned about a process while its ancestry was still visible. */
export interface LineageEntry {
  agent: string;
  agentPid: number | null;
  /** The group and session the process was first seen in. */
  originPgid: number;
  originSid: number;
  /** The parent when first seen; a different parent later means it was reparented. */
  originalPpid: number;
  /** pids from the process up to the agent, when first seen. */
  ancestry: number[];
  firstSeenAt: number;
}

export interface AgentAttribution {
  agent: string;
  agentPid: number | null;
}

/** A group or session seen under an agent, and the identities (pid@start) Corral saw in it. */
interface RememberedSet {
  attribution: AgentAttribution;
  members: Set<string>;
  /** The earliest start among them: whoever created the group or session started no later. */
  earliestStart: number;
}

/** Where a remembered identity is now: its group and session, or null once it ended. */
export type WhereNow = (identity: string) => { pgid: number; sid: number } | null;

/** The process a group's or session's id names (pid = PGID or SID), as read now, if it was read. */
export interface IdHolder {
  pid: number;
  startKey: number;
}

/**
 * Memory of agents' descendants, keyed by process identity (pid + start) so that a reused pid never
 * inherits another process's history. PGIDs and SIDs seen under an agent are remembered too, so a
 * later-seen member of such a group is attributed even when its parent was never seen; but a PGID or
 * SID is a number the kernel hands out again once its last member is gone, so each is remembered with
 * the identities seen in it, forgotten when none of them is in it any more (see forgetEnded), and never
 * matched when the process holding its number is younger than them (a new group under an old number).
 */
export class LineageMemory {
  readonly byIdentity = new Map<string, LineageEntry>();
  private readonly groups = new Map<number, RememberedSet>();
  private readonly sessions = new Map<number, RememberedSet>();

  /**
   * `toolCallSession`: the process's session is a tool call's own (its leader is the agent's), not the
   * terminal session the agent itself runs in, which also holds the user's shell.
   */
  remember(identity: string, entry: LineageEntry, toolCallSession: boolean): void {
    if (!this.byIdentity.has(identity)) this.byIdentity.set(identity, entry);
    join(this.groups, entry.originPgid, identity, entry);
    if (toolCallSession) join(this.sessions, entry.originSid, identity, entry);
  }

  /** Forgets what one identity's entry taught (it was read wrongly, e.g. mid-exec). */
  forget(identity: string, entry: LineageEntry): void {
    if (this.byIdentity.get(identity) === entry) this.byIdentity.delete(identity);
    leave(this.groups, entry.originPgid, identity);
    leave(this.sessions, entry.originSid, identity);
  }

  /** The agent a process in group `pgid` belongs to by memory; `leader` is the process with pid `pgid`. */
  groupAgent(pgid: number, leader: IdHolder | undefined): AgentAttribution | null {
    return recall(this.groups, pgid, leader);
  }

  /** The same for a tool call's session `sid`; `leader` is the process with pid `sid`. */
  sessionAgent(sid: number, leader: IdHolder | undefined): AgentAttribution | null {
    return recall(this.sessions, sid, leader);
  }

  /**
   * Forgets identities that ended, and each group and session once no identity seen in it is still in
   * it: from then on its number may be handed to a stranger.
   */
  forgetEnded(whereNow: WhereNow): void {
    for (const id of this.byIdentity.keys()) if (!whereNow(id)) this.byIdentity.delete(id);
    for (const [pgid, set] of this.groups) {
      for (const id of set.members) if (whereNow(id)?.pgid !== pgid) set.members.delete(id);
      if (set.members.size === 0) this.groups.delete(pgid);
    }
    for (const [sid, set] of this.sessions) {
      for (const id of set.members) if (whereNow(id)?.sid !== sid) set.members.delete(id);
      if (set.members.size === 0) this.sessions.delete(sid);
    }
  }

  /** How many groups and sessions are remembered (for tests of forgetting). */
  get remembered(): { groups: number; sessions: number; identities: number } {
    return { groups: this.groups.size, sessions: this.sessions.size, identities: this.byIdentity.size };
  }
}

function join(sets: Map<number, RememberedSet>, id: number, identity: string, entry: LineageEntry): void {
  const start = startKeyOfIdentity(identity);
  const set = sets.get(id);
  if (!set) {
    const attribution = { agent: entry.agent, agentPid: entry.agentPid };
    sets.set(id, { attribution, members: new Set([identity]), earliestStart: start });
    return;
  }
  set.members.add(identity);
  if (start < set.earliestStart) set.earliestStart = start;
}

function leave(sets: Map<number, RememberedSet>, id: number, identity: string): void {
  const set = sets.get(id);
  if (!set) return;
  set.members.delete(identity);
  if (set.members.size === 0) sets.delete(id);
}

function recall(
  sets: Map<number, RememberedSet>,
  id: number,
  holder: IdHolder | undefined,
): AgentAttribution | null {
  const set = sets.get(id);
  if (!set) return null;
  // The process holding the number is one seen in it, or old enough to have created it; one born after
  // every identity remembered there holds a new group or session that only reuses the number.
  if (holder && holder.pid === id && holder.startKey > set.earliestStart) {
    return set.members.has(identityKey(holder.pid, holder.startKey)) ? set.attribution : null;
  }
  return set.attribution;
}
