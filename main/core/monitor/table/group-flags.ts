import type { GroupFlag } from '../../../../shared/model';
import type { TrackedGroup } from './tracked';

/** Flags of a live group, from its live members' state (one pass: this runs for every group, every poll). */
export function groupFlags(group: TrackedGroup): GroupFlag[] {
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
  if (group.memory.active && live > 0) flags.push('memory-hog');
  if (group.spawns?.state.active && live > 0) flags.push('spawn-storm');
  return flags;
}

/** The flags an incident is kept for: an agent's own group is not leaderless when its wrapper exits. */
export function incidentFlags(group: TrackedGroup): GroupFlag[] {
  const flags = groupFlags(group);
  if (flags.includes('leaderless') && isAgentGroup(group)) return flags.filter((f) => f !== 'leaderless');
  return flags;
}

function isAgentGroup(group: TrackedGroup): boolean {
  for (const id of group.live) if (group.members.get(id)?.attribution?.isAgent) return true;
  return false;
}
