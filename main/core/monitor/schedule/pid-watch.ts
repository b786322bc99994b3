import type { ExitWatchCoverage, ProcessSampler } from '../../sampling/process-sampler';
import type { MonitorState } from '../table/monitor-state';
import { agentChildrenByParent, agentsOwnPids, agentWatchedParents } from '../table/agent-processes';

/**
 * What the monitor follows between polls, and how it finds what to read: the kernel's pid counter (new
 * pids), exits of agents' processes and their parents (pidfds, or their parents' child lists where
 * those are unavailable), and forks of followed processes (macOS). Reads nothing itself but those
 * cheap signals: it says which pids the monitor should read.
 */
export class PidWatch {
  /** Processes whose exit orphans an agent's descendants: agents' processes' parents among them. */
  private watchedParents = new Set<number>();
  /** Each watched parent's child list as last read (the sampler returns the same array when unchanged). */
  private readonly lastChildren = new Map<number, number[]>();
  /** The kernel's last-pid counter when last read: new pids are the ones after it. */
  private pidCursor: number | null = null;
  /** How far the sampler follows agents' processes for exit (pidfds); below 'all', child lists are read. */
  private coverage: ExitWatchCoverage = 'unavailable';

  constructor(
    private readonly sampler: ProcessSampler,
    private readonly state: MonitorState,
  ) {}

  get exitWatch(): ExitWatchCoverage {
    return this.coverage;
  }

  /** A full sweep lists every pid: new pids are then the ones after the counter as it stands now. */
  restartPidCursor(): void {
    const before = this.pidCursor;
    this.pidCursor = this.sampler.newPidsSince?.(null).cursor ?? null;
    this.noteCounter(before, this.pidCursor, true);
  }

  /** A pid may have been handed out twice since the last look: the counter went back, or was not followed. */
  private noteCounter(before: number | null, after: number | null, followed: boolean): void {
    const state = this.state;
    if (after === null) state.pidEpoch = null;
    else if (state.pidEpoch === null) state.pidEpoch = 0;
    else if (!followed || before === null || after < before) state.pidEpoch++;
  }

  /** Told each look's new pids, in the counter's order (null: the table was listed instead). */
  onNewPids: ((pids: readonly number[] | null) => void) | null = null;

  /**
   * New pids from the kernel's counter; null when the table must be listed instead: no counter, or one
   * that could not be followed since the last look (more births than are worth probing one by one, or a
   * counter set back through ns_last_pid). The cursor then stands where the listing starts.
   */
  discoverNewPids(): number[] | null {
    const sampler = this.sampler;
    if (!sampler.newPidsSince || this.pidCursor === null) {
      this.state.pidEpoch = null;
      this.onNewPids?.(null);
      return null;
    }
    const before = this.pidCursor;
    const { cursor, pids } = sampler.newPidsSince(this.pidCursor);
    this.pidCursor = cursor;
    this.noteCounter(before, cursor, pids !== null);
    this.onNewPids?.(pids);
    return pids;
  }

  /**
   * The pids the cheap watch between polls reads: pids allocated since the last look (so a tool call's
   * child is seen even when its shell exits at once), and exits among agents' processes and their parents
   * (one poll over pidfds; where those are unavailable, the child lists of agents' processes that have
   * children). Null when nothing happened.
   */
  pidsToRead(): Set<number> | null {
    const counted = this.pidCursor !== null && this.sampler.newPidsSince !== undefined;
    const sampler = this.sampler;
    let fresh = this.discoverNewPids();
    // The counter could not be followed: the pids it moved over are found by listing the table now, or
    // none of them would be read before the next full sweep.
    if (fresh === null && counted) fresh = this.unknownPids();
    const exited = this.coverage !== 'unavailable' && sampler.exitedWatched ? sampler.exitedWatched() : null;
    const forked = this.coverage !== 'unavailable' && sampler.forkedWatched ? sampler.forkedWatched() : null;
    const readChildLists = this.coverage !== 'all' && sampler.childrenOf && this.watchedParents.size > 0;
    if (
      (fresh === null || fresh.length === 0) &&
      (exited === null || exited.length === 0) &&
      (forked === null || forked.length === 0) &&
      !readChildLists
    )
      return null;
    const toRead = new Set<number>(fresh ?? []);
    // A followed process forked (macOS): its child, unknown yet, is read while its parent is still there.
    if (forked && sampler.childrenOf)
      for (const parent of forked) {
        toRead.add(parent);
        for (const k of sampler.childrenOf(parent) ?? []) if (!this.state.procs.has(k)) toRead.add(k);
      }
    // Newcomers are classified by their parents: an agent's process read between its fork and exec
    // (a tool call's shell under the agent's name) is re-read with them, so its exec is seen first.
    if (fresh && fresh.length > 0) for (const pid of agentsOwnPids(this.state)) toRead.add(pid);
    if (exited && exited.length > 0) {
      const knownChildren = agentChildrenByParent(this.state);
      for (const pid of exited) {
        toRead.add(pid);
        // Its children were reparented as it exited: reading them now sees it.
        for (const k of knownChildren.get(pid) ?? []) toRead.add(k);
      }
    }
    if (readChildLists && sampler.childrenOf) this.addChildListChanges(toRead);
    return toRead.size === 0 ? null : toRead;
  }

  /** Listed pids the monitor does not know yet. */
  private unknownPids(): number[] {
    const procs = this.state.procs;
    return this.sampler.listPids().filter((pid) => !procs.has(pid));
  }

  /** Where exits are not followed: watched parents whose child list changed, and the children that moved. */
  private addChildListChanges(toRead: Set<number>): void {
    const childrenOf = this.sampler.childrenOf!.bind(this.sampler);
    let knownChildren: Map<number, number[]> | null = null;
    for (const parent of this.watchedParents) {
      const kids = childrenOf(parent);
      // The same list as last time: nothing was born or lost there (the common case, made cheap).
      if (kids !== null && kids === this.lastChildren.get(parent)) continue;
      knownChildren ??= agentChildrenByParent(this.state);
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

  /** Which processes the watch follows: agents' processes and their parents, whose exit orphans them. */
  update(): void {
    this.watchedParents = agentWatchedParents(this.state);
    for (const parent of this.lastChildren.keys())
      if (!this.watchedParents.has(parent)) this.lastChildren.delete(parent);
    const sampler = this.sampler;
    if (!sampler.watchExits) return;
    const targets = new Map<number, number>();
    const follow = (pid: number): void => {
      const p = this.state.procs.get(pid);
      if (p && p.exitedAt === null) targets.set(pid, p.record.startKey);
    };
    // Parents first: if descriptors run short, their exits matter most.
    for (const pid of this.watchedParents) follow(pid);
    for (const pid of this.state.agentPids) {
      const p = this.state.procs.get(pid);
      // A storm's births come and go by the thousand a second: following each one's exit would open a
      // pidfd and wake the waiting thread for every one. Its summary counts them; what one leaves behind
      // is found by the next look's reads. Its loop (their parent) is followed as a watched parent.
      if (p?.summarized && p.record.pid !== p.record.pgid && p.record.pid !== p.record.sid) continue;
      follow(pid);
    }
    this.coverage = sampler.watchExits(targets);
  }
}
