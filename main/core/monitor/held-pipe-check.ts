import { commandOf } from '../analysis/grouping';
import { describeHeldPipe } from '../analysis/held-pipes/describe-held-pipe';
import type { HeldPipe } from '../sampling/match-held-pipes';
import type { HeldPipeQuery } from '../sampling/process-record';
import type { MonitorState } from './monitor-state';
import type { TrackedGroup, TrackedProcess } from './tracked';

export type FindHeldPipes = (query: HeldPipeQuery) => HeldPipe[];

/** Marks the processes of leaderless tool-call groups that still hold their agent's pipe open. */
export class HeldPipeCheck {
  constructor(
    private readonly state: MonitorState,
    private readonly find: FindHeldPipes,
  ) {}

  run(now: number): void {
    const groups = this.candidates(now);
    if (groups.length === 0) return;
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
      for (const pipe of this.find({ readerPids: readers, holderPids: holders.map((h) => h.record.pid) }))
        if (!held.has(pipe.holderPid)) held.set(pipe.holderPid, pipe);
      for (const p of holders) this.apply(p, held.get(p.record.pid), now);
    }
  }

  /**
   * Which tool-call groups to look at. Reading descriptors costs far more than a stat, and a pipe is
   * left held when the wrapper exits: so a group is looked at on every poll for 10 s after its leader
   * exited, and a group already holding one every 30th poll, to see it let go.
   */
  private candidates(now: number): TrackedGroup[] {
    const recheck = this.state.polls % 30 === 0;
    const out: TrackedGroup[] = [];
    for (const group of this.state.liveGroupByPgid.values()) {
      if (group.leaderExitedAt === null || !group.agent) continue;
      const recent = now - group.leaderExitedAt <= 10_000;
      const holding = recheck && [...group.live].some((id) => group.members.get(id)?.heldPipe);
      if (recent || holding) out.push(group);
    }
    return out;
  }

  private apply(p: TrackedProcess, pipe: HeldPipe | undefined, now: number): void {
    if (!pipe) {
      p.heldPipe = null;
      return;
    }
    if (p.heldPipe !== null) return;
    p.heldPipe = describeHeldPipe(pipe, (pid) => {
      const q = this.state.procs.get(pid);
      return q ? commandOf(q.record) : null;
    });
    this.state.emit('held-pipe', p, now, {
      description: p.heldPipe,
      inode: pipe.inode,
      holderFd: pipe.holderFd,
      readerPid: pipe.readerPid,
      readerFd: pipe.readerFd,
      kind: pipe.kind,
    });
  }
}
