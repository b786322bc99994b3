import type { GroupView, ProcessView } from './model';

export type StopMode = 'group' | 'orphans-only';

/** A group holding the agent itself may only lose its orphans; anything else may go whole. */
export function stopModes(group: Pick<GroupView, 'containsAgent'>): StopMode[] {
  return group.containsAgent ? ['orphans-only'] : ['group', 'orphans-only'];
}

export function stopTargets(group: Pick<GroupView, 'processes'>, mode: StopMode): ProcessView[] {
  return mode === 'group' ? group.processes : group.processes.filter((p) => p.flags.includes('orphan'));
}

/** Processes that left this group with setsid but came from it (its tool call): stopped only on request. */
export function escapedFrom(group: Pick<GroupView, 'pgid'>, groups: readonly GroupView[]): ProcessView[] {
  return groups
    .filter((g) => g.pgid !== group.pgid)
    .flatMap((g) => g.processes)
    .filter((p) => p.flags.includes('escaped') && p.originGroup?.pgid === group.pgid);
}
