import { initialMemoryHogState, nextMemoryHogState, type MemoryHogState } from '../../analysis/memory-hog';
import type { MonitorState } from '../table/monitor-state';
import type { TrackedGroup } from '../table/tracked';

const MB = 1024 * 1024;
/** Below the line, and no clock running: what a reading below the line leaves as it is. */
const resting = (s: MemoryHogState): boolean => !s.active && s.highSince === null && s.lowSince === null;
const megabytes = (bytes: number): number => Math.round((bytes / MB) * 10) / 10;

/**
 * Sustained memory, once per poll: each live group's members (an agent's own processes excluded) flag
 * the group `memory-hog`; each agent's own process is held to the same rule and only announced
 * (`memory-hog` with `agentProcess: true`), never flagged for a stop. Memory is the sampler's resident
 * set (RSS on Linux, the physical footprint on macOS).
 */
export class MemoryCheck {
  /** Agents' own processes, by identity. */
  private readonly agents = new Map<string, MemoryHogState>();
  /** The identities of the agents' processes seen in the current run. */
  private readonly seen = new Set<string>();
  private unsettled = true;

  constructor(
    private readonly state: MonitorState,
    private readonly policy: () => { groupMegabytes: number; windowSeconds: number },
  ) {}

  /**
   * Whether the last run left every group and agent below the line and not timing anything: with the same
   * readings, members and settings, another run would then change nothing (only a reading above the line
   * starts a clock).
   */
  get settled(): boolean {
    return !this.unsettled;
  }

  run(now: number): void {
    const policy = this.policy();
    let unsettled = false;
    for (const group of this.state.liveGroupByPgid.values()) {
      this.updateGroup(group, now, policy);
      unsettled ||= !resting(group.memory);
    }
    // Runs every poll: no array of the live agents' processes, and the one set reused.
    const seen = this.seen;
    seen.clear();
    for (const pid of this.state.agentPids) {
      const p = this.state.procs.get(pid);
      if (!p || p.exitedAt !== null || !p.attribution?.isAgent) continue;
      seen.add(p.identity);
      const before = this.agents.get(p.identity) ?? initialMemoryHogState();
      const rss = p.record.rssBytes;
      if (rss === null) continue;
      const after = nextMemoryHogState(before, rss, now, policy);
      this.agents.set(p.identity, after);
      unsettled ||= !resting(after);
      if (before.active === after.active) continue;
      this.state.emit(after.active ? 'memory-hog' : 'memory-hog-cleared', p, now, {
        agentProcess: true,
        megabytes: megabytes(rss),
        peakMegabytes: megabytes(before.active ? before.peakBytes : after.peakBytes),
      });
    }
    for (const identity of this.agents.keys()) if (!seen.has(identity)) this.agents.delete(identity);
    this.unsettled = unsettled;
  }

  private updateGroup(
    group: TrackedGroup,
    now: number,
    policy: { groupMegabytes: number; windowSeconds: number },
  ): void {
    let bytes = 0;
    for (const id of group.live) {
      const p = group.members.get(id);
      if (!p || p.exitedAt !== null || p.attribution?.isAgent) continue;
      bytes += p.record.rssBytes ?? 0;
    }
    const before = group.memory;
    group.memory = nextMemoryHogState(before, bytes, now, policy);
    if (before.active === group.memory.active) return;
    this.state.emitGroup(group.memory.active ? 'memory-hog' : 'memory-hog-cleared', group, now, {
      agentProcess: false,
      megabytes: megabytes(bytes),
      peakMegabytes: megabytes(before.active ? before.peakBytes : group.memory.peakBytes),
    });
  }
}
