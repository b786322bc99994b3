import { isLiveBackgroundTask } from '../../../shared/background-task';
import type { GroupFlag, GroupView, ProcessView } from '../../../shared/model';

/**
 * The flags that say a tool call left the group behind: a process reparented (`orphan`), the call's shell
 * gone while members live on (`leaderless`). Neither is said of a background task while its session
 * lives: the agent meant it to outlive the call, and still tracks it. What it does stays flagged
 * (`runaway`, `memory-hog`, `held-pipe`): a hot background task is still worth telling.
 */
const LEFT_BEHIND: ReadonlySet<string> = new Set<GroupFlag>(['orphan', 'leaderless']);

/**
 * Pure: each live background task (shared/background-task.ts) without its left-behind flags, its members
 * role `background-task`; a group that no longer is one (its session reported ended) has its members'
 * role `tool-call` again. A new object where anything changed: views may be shared with a cache.
 */
export function markBackgroundTasks(groups: readonly GroupView[]): GroupView[] {
  return groups.map((g) => {
    const live = isLiveBackgroundTask(g);
    if (!live && !g.processes.some((p) => p.role === 'background-task')) return g;
    const processes = g.processes.map((p) => (live ? asBackgroundTask(p) : asToolCall(p)));
    const flags = live ? g.flags.filter((f) => !LEFT_BEHIND.has(f)) : g.flags;
    const same = flags.length === g.flags.length && processes.every((p, i) => p === g.processes[i]);
    return same ? g : { ...g, flags, processes };
  });
}

function asBackgroundTask(p: ProcessView): ProcessView {
  const role = p.role === 'tool-call' ? 'background-task' : p.role;
  const flags = p.flags.includes('orphan') ? p.flags.filter((f) => f !== 'orphan') : p.flags;
  return role === p.role && flags === p.flags ? p : { ...p, role, flags };
}

function asToolCall(p: ProcessView): ProcessView {
  return p.role === 'background-task' ? { ...p, role: 'tool-call' } : p;
}
