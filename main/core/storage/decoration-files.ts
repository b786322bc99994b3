import { statSync } from 'node:fs';
import type { KeepRecord } from '../analysis/kept-marks';
import type { AgentTaskLists } from '../analysis/agent-tasks';
import type { EndedSessions } from '../analysis/session-ended';
import { agentTasksPath, loadAgentTasks } from './agent-tasks';
import { endedSessionsPath, loadEndedSessions } from './ended-sessions';
import { keepsPath, loadKeeps } from './keeps';

/**
 * The files in the data directory that decorate the running service's group views: the user's keeps
 * (`corral keep`) and the sessions the agent hooks reported ended. Each is read again only when its
 * modification time moved, so a view built every second costs a stat per file.
 */
export class DecorationFiles {
  private ended: EndedSessions = new Map();
  private endedMtimeMs = -1;
  private tasks: AgentTaskLists = new Map();
  private tasksMtimeMs = -1;
  private keepList: KeepRecord[] = [];
  private keepsMtimeMs = -1;

  constructor(private readonly dataDir: string) {}

  /** The keep list, read again only when the file changed (a `corral keep` while Corral runs). */
  keeps(): KeepRecord[] {
    const mtimeMs = mtimeOf(keepsPath(this.dataDir));
    if (mtimeMs !== this.keepsMtimeMs) {
      this.keepsMtimeMs = mtimeMs;
      try {
        this.keepList = mtimeMs < 0 ? [] : loadKeeps(this.dataDir);
      } catch {
        // A keep list Corral refuses to read (a link, another's file) keeps nothing.
        this.keepList = [];
      }
    }
    return this.keepList;
  }

  /** Forgets the keep list read last: the service just wrote it (mtime may not move within a tick). */
  keepsChanged(): void {
    this.keepsMtimeMs = -2;
  }

  /** The ended sessions the hooks recorded, read again only when the file changed. */
  endedSessions(): EndedSessions {
    const mtimeMs = mtimeOf(endedSessionsPath(this.dataDir));
    if (mtimeMs !== this.endedMtimeMs) {
      this.endedMtimeMs = mtimeMs;
      this.ended = mtimeMs < 0 ? new Map() : loadEndedSessions(this.dataDir);
    }
    return this.ended;
  }

  /** The task lists the agents' hooks reported (Stop's `background_tasks[]`), read again when changed. */
  agentTasks(): AgentTaskLists {
    const mtimeMs = mtimeOf(agentTasksPath(this.dataDir));
    if (mtimeMs !== this.tasksMtimeMs) {
      this.tasksMtimeMs = mtimeMs;
      this.tasks = mtimeMs < 0 ? new Map() : loadAgentTasks(this.dataDir);
    }
    return this.tasks;
  }
}

function mtimeOf(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
}
