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

/**
 * Memory of agents' descendants, keyed by process identity (pid + start) so that a reused pid never
 * inherits another process's history; PGIDs and SIDs seen under an agent are remembered too, so a
 * later-seen member of such a group is attributed even when its parent was never seen.
 */
export class LineageMemory {
  readonly byIdentity = new Map<string, LineageEntry>();
  readonly groups = new Map<number, AgentAttribution>();
  readonly sessions = new Map<number, AgentAttribution>();

  /**
   * `toolCallSession`: the process's session is a tool call's own (its leader is the agent's), not the
   * terminal session the agent itself runs in, which also holds the user's shell.
   */
  remember(identity: string, entry: LineageEntry, toolCallSession: boolean): void {
    if (!this.byIdentity.has(identity)) this.byIdentity.set(identity, entry);
    if (!this.groups.has(entry.originPgid)) this.groups.set(entry.originPgid, entry);
    if (toolCallSession && !this.sessions.has(entry.originSid)) this.sessions.set(entry.originSid, entry);
  }

  /** Forgets what one identity's entry taught (it was read wrongly, e.g. mid-exec). */
  forget(identity: string, entry: LineageEntry): void {
    if (this.byIdentity.get(identity) === entry) this.byIdentity.delete(identity);
    if (this.groups.get(entry.originPgid) === entry) this.groups.delete(entry.originPgid);
    if (this.sessions.get(entry.originSid) === entry) this.sessions.delete(entry.originSid);
  }

  /** Forgets dead processes, and groups and sessions nobody is in any more (their ids may be reused). */
  prune(
    liveIdentities: ReadonlySet<string>,
    livePgids: ReadonlySet<number>,
    liveSids: ReadonlySet<number>,
  ): void {
    for (const id of this.byIdentity.keys()) if (!liveIdentities.has(id)) this.byIdentity.delete(id);
    for (const pgid of this.groups.keys()) if (!livePgids.has(pgid)) this.groups.delete(pgid);
    for (const sid of this.sessions.keys()) if (!liveSids.has(sid)) this.sessions.delete(sid);
  }
}
