import { commandOf } from '../../analysis/grouping';
import { describeHeldPipe } from '../../analysis/held-pipes/describe-held-pipe';
import type { HeldPipe } from '../../model/held-pipe';
import type { HeldPipeQuery } from '../../sampling/process-sampler';
import type { MonitorState } from '../table/monitor-state';
import type { TrackedGroup, TrackedProcess } from '../table/tracked';

export type FindHeldPipes = (query: HeldPipeQuery) => HeldPipe[];
/** What a found pipe's holder and reader descriptors link to now; null when either is gone. */
export type HeldPipeLinks = (pipe: HeldPipe) => string | null;

/** Marks the processes of leaderless tool-call groups that still hold their agent's pipe open. */
export class HeldPipeCheck {
  /** Each holder's pipe as found, and what its two descriptors linked to then (see stillHeld). */
  private readonly standing = new WeakMap<TrackedProcess, { pipe: HeldPipe; links: string }>();
  /** Each group's live members when its descriptors were last listed whole. */
  private readonly listedLive = new WeakMap<TrackedGroup, ReadonlySet<string>>();

  constructor(
    private readonly state: MonitorState,
    private readonly find: FindHeldPipes,
    private readonly links?: HeldPipeLinks,
  ) {}

  /** Returns whether a process's held pipe came or went (a view shows it). */
  run(now: number): boolean {
    const groups = this.candidates(now);
    if (groups.length === 0) return false;
    for (const group of groups) this.listedLive.set(group, group.live);
    let changed = false;
    // Readers: the agent that started the tool call, or, when only its markers tell us which agent
    // it was, every live process of that agent (the pipe itself proves which one reads it).
    const agentsByName = new Map<string, number[]>();
    for (const p of this.state.liveAgentProcs()) {
      if (!p.attribution?.isAgent) continue;
      const list = agentsByName.get(p.attribution.agent) ?? [];
      list.push(p.record.pid);
      agentsByName.set(p.attribution.agent, list);
    }
    // Holders: agents' descendants in tool-call groups whose wrapper (the leader) has exited.
    const queries = new Map<string, { readers: number[]; holders: TrackedProcess[] }>();
    for (const group of groups) {
      const readers = this.liveReaders(group, agentsByName);
      if (readers.length === 0) {
        // The reader is gone: nobody waits on the pipe any more, whatever still holds it open.
        for (const id of group.live) changed = this.apply(group.members.get(id), undefined, now) || changed;
        continue;
      }
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
      for (const pipe of this.find({ readerPids: readers, holderPids: holders.map((h) => h.record.pid) }))
        if (!held.has(pipe.holderPid)) held.set(pipe.holderPid, pipe);
      for (const p of holders) changed = this.apply(p, held.get(p.record.pid), now) || changed;
    }
    return changed;
  }

  /** The agent processes that may read the group's pipe and still live. */
  private liveReaders(group: TrackedGroup, agentsByName: Map<string, number[]>): number[] {
    const pid = group.agent!.pid;
    if (pid === null) return agentsByName.get(group.agent!.name) ?? [];
    const agent = this.state.procs.get(pid);
    return agent && agent.exitedAt === null ? [pid] : [];
  }

  /**
   * Which tool-call groups to look at. Reading descriptors costs far more than a stat, and a pipe is
   * left held when the wrapper exits: so a group is looked at on every poll for 10 s after its leader
   * exited, and a group already holding one every 30th poll, to see it let go (listed whole only when
   * a descriptor moved: see stillHeld), or at once when its reader (the agent) has exited.
   */
  private candidates(now: number): TrackedGroup[] {
    const recheck = this.state.polls % 30 === 0;
    const out: TrackedGroup[] = [];
    for (const group of this.state.liveGroupByPgid.values()) {
      if (group.leaderExitedAt === null || !group.agent) continue;
      const recent = now - group.leaderExitedAt <= 10_000;
      const holding = this.holdsAPipe(group);
      if (recent || (holding && !this.readerAlive(group))) out.push(group);
      else if (holding && recheck && !this.stillHeld(group)) out.push(group);
    }
    return out;
  }

  /**
   * Whether a holding group's recheck can be answered without listing descriptors: its members are the
   * ones last listed (a child forked since may have inherited the pipe), and every holder's descriptor
   * and its reader's still link to what they did when the pipe was found. A descriptor closed, or reused
   * for something else, and the group is listed whole, as before.
   */
  private stillHeld(group: TrackedGroup): boolean {
    const links = this.links;
    const listed = this.listedLive.get(group);
    if (!links || !listed || listed.size !== group.live.size) return false;
    for (const id of group.live) {
      if (!listed.has(id)) return false;
      const p = group.members.get(id);
      if (!p?.heldPipe) continue;
      const standing = this.standing.get(p);
      if (!standing || links(standing.pipe) !== standing.links) return false;
    }
    return true;
  }

  private readerAlive(group: TrackedGroup): boolean {
    const pid = group.agent!.pid;
    if (pid !== null) return this.state.procs.get(pid)?.exitedAt === null;
    const name = group.agent!.name;
    return this.state.someLiveAgentProc((p) => p.attribution?.agent === name);
  }

  /** What the pipe's descriptors link to now, kept only when they are the pipe found (not closed since). */
  private noteStanding(p: TrackedProcess, pipe: HeldPipe): void {
    const known = this.standing.get(p);
    if (known && known.pipe.holderFd === pipe.holderFd && known.pipe.inode === pipe.inode) return;
    const links = this.links?.(pipe) ?? null;
    if (links !== null && links.startsWith(`${pipe.kind}:[${pipe.inode}] `))
      this.standing.set(p, { pipe, links });
    else this.standing.delete(p);
  }

  /** Whether a live member holds a pipe; asked of every agent's group on every poll, so without copies. */
  private holdsAPipe(group: TrackedGroup): boolean {
    for (const id of group.live) if (group.members.get(id)?.heldPipe) return true;
    return false;
  }

  private apply(p: TrackedProcess | undefined, pipe: HeldPipe | undefined, now: number): boolean {
    if (!p) return false;
    if (!pipe) {
      const had = p.heldPipe !== null;
      p.heldPipe = null;
      this.standing.delete(p);
      return had;
    }
    this.noteStanding(p, pipe);
    const description = describeHeldPipe(pipe, (pid) => {
      const q = this.state.procs.get(pid);
      return q ? commandOf(q.record) : null;
    });
    // Still held, perhaps through another descriptor now (stdout let go, stderr not yet): the line
    // follows it, but the pipe was announced once.
    if (p.heldPipe !== null) {
      const moved = p.heldPipe !== description;
      p.heldPipe = description;
      return moved;
    }
    p.heldPipe = description;
    this.state.emit('held-pipe', p, now, {
      description,
      inode: pipe.inode,
      holderFd: pipe.holderFd,
      readerPid: pipe.readerPid,
      readerFd: pipe.readerFd,
      kind: pipe.kind,
    });
    return true;
  }
}
