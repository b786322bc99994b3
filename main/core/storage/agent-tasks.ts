import { join } from 'node:path';
import type { AgentTaskList } from '../analysis/agent-tasks';
import { isRefusal, readUntrustedFile } from '../files/untrusted-file';
import { appendOwnFile, ensureOwnDataDir } from './own-data-dir';

/**
 * The task lists agents reported through their hooks (Claude Code's Stop `background_tasks[]`), one JSON
 * line per report in `<data dir>/hooks/agent-tasks.jsonl`, appended in one write as ended-sessions.ts does.
 */
export function agentTasksPath(dataDir: string): string {
  return join(dataDir, 'hooks', 'agent-tasks.jsonl');
}

/** At most this many tasks of one report, each command at most 2000 characters, are kept. */
const MAX_TASKS = 64;
const MAX_COMMAND = 2000;

export function recordAgentTasks(dataDir: string, list: AgentTaskList): void {
  ensureOwnDataDir(dataDir, 'hooks');
  appendOwnFile(agentTasksPath(dataDir), `${JSON.stringify(list)}\n`);
}

/**
 * Pure: a hook payload's `background_tasks[]` as a task list, or null when it has none (an agent or
 * release without the field: nothing is said of its tasks).
 */
export function taskListOf(
  agent: string,
  sessionId: string,
  at: number,
  payload: unknown,
): AgentTaskList | null {
  const raw = (payload as { background_tasks?: unknown } | null)?.background_tasks;
  if (!Array.isArray(raw) || sessionId === '') return null;
  const tasks: AgentTaskList['tasks'] = [];
  for (const t of raw.slice(0, MAX_TASKS) as unknown[]) {
    if (typeof t !== 'object' || t === null) continue;
    const { id, type, command } = t as Record<string, unknown>;
    if (typeof id !== 'string') continue;
    tasks.push({
      id: id.slice(0, 64),
      type: typeof type === 'string' ? type.slice(0, 64) : '',
      command: typeof command === 'string' ? command.slice(0, MAX_COMMAND) : null,
    });
  }
  return { agent, sessionId, at, tasks };
}

/** Pure: the store's text → session id → its latest list. Lines that do not parse are skipped. */
export function parseAgentTasks(text: string): Map<string, AgentTaskList> {
  const out = new Map<string, AgentTaskList>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const v = JSON.parse(line) as Partial<AgentTaskList> & { background_tasks?: unknown };
      if (typeof v.sessionId !== 'string' || typeof v.at !== 'number') continue;
      const list = taskListOf(String(v.agent ?? ''), v.sessionId, v.at, { background_tasks: v.tasks });
      const prev = out.get(v.sessionId);
      if (list && (!prev || prev.at <= list.at)) out.set(v.sessionId, list);
    } catch {
      // A torn or foreign line: skip it, keep the rest.
    }
  }
  return out;
}

const AGENT_TASKS_MAX_BYTES = 64 * 1024 * 1024;

/** The latest task list of each session; none when the file is absent or cannot be read (decoration). */
export function loadAgentTasks(dataDir: string): Map<string, AgentTaskList> {
  const file = readUntrustedFile(agentTasksPath(dataDir), { maxBytes: AGENT_TASKS_MAX_BYTES });
  return isRefusal(file) ? new Map() : parseAgentTasks(file.bytes.toString('utf8'));
}
