import type { GroupView } from '../../../shared/model';

/**
 * What an agent itself said it keeps running: Claude Code's Stop hook payload carries `background_tasks[]`,
 * the session's tasks whose status is `running` or `pending` (2.1.332's bundle: `{id, type, status,
 * description, command}` for a `local_bash` task, its command cut to a length), recorded by the hook
 * (storage/agent-tasks.ts). The latest list of each session is what the agent means to keep running now.
 */
export interface AgentTaskList {
  agent: string;
  sessionId: string;
  /** When the hook reported the list, ms since epoch. */
  at: number;
  tasks: Array<{ id: string; type: string; command: string | null }>;
}

export type AgentTaskLists = ReadonlyMap<string, AgentTaskList>;

/** The task a command is, when the agent's list names it: the same command, or one it cut short. */
function listedTask(list: AgentTaskList, command: string): AgentTaskList['tasks'][number] | null {
  for (const task of list.tasks) {
    if (task.command === null || task.command === '') continue;
    if (task.command === command) return task;
    const cut = task.command.endsWith('…') ? task.command.slice(0, -1) : null;
    if (cut && cut.length >= 16 && command.startsWith(cut)) return task;
  }
  return null;
}

/**
 * Pure: each group whose tool call its session's latest list names is the agent's task (`agentTask:
 * 'running'`, with the task's id), a background task while its session lives (shared/background-task.ts);
 * a tool call the agent asked to run in the background that a list reported after the call no longer
 * names is over for the agent (`agentTask: 'ended'`): what still runs of it is a leftover. A new object
 * where anything changed.
 */
export function markAgentTasks(groups: readonly GroupView[], lists: AgentTaskLists): GroupView[] {
  if (lists.size === 0) return [...groups];
  return groups.map((g) => {
    const call = g.toolCall;
    const list = g.session ? lists.get(g.session.id) : undefined;
    if (!call || !list) return g;
    const task = listedTask(list, call.command);
    if (task) return { ...g, toolCall: { ...call, agentTask: 'running', agentTaskId: task.id } };
    if (call.background === true && list.at > call.startedAt)
      return { ...g, toolCall: { ...call, agentTask: 'ended' } };
    return g;
  });
}
