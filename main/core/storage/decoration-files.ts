import { statSync } from 'node:fs';
import type { KeepRecord } from '../analysis/kept-marks';
import type { AgentTaskLists } from '../analysis/agent-tasks';
import type { EndedSessions } from '../analysis/session-ended';
import { agentTasksPath, loadAgentTasks } from './agent-tasks';
import { endedSessionsPath, loadEndedSessions } from './ended-sessions';
import { keepsPath, loadKeeps } from './keeps';

/** One file's contents as loaded, read again only when its modification time moved. */
class ReadWhenChanged<T> {
  private value: T;
  private mtimeMs = -1;

  constructor(
    private readonly path: string,
    private readonly load: () => T,
    private readonly none: T,
  ) {
    this.value = none;
  }

  get(): T {
    const mtimeMs = mtimeOf(this.path);
    if (mtimeMs !== this.mtimeMs) {
      this.mtimeMs = mtimeMs;
      try {
        this.value = mtimeMs < 0 ? this.none : this.load();
      } catch {
        // A file Corral refuses to read (a link, another's file) says nothing.
        this.value = this.none;
      }
    }
    return this.value;
  }

  /** Read it again at the next get, whatever its modification time says. */
  forget(): void {
    this.mtimeMs = -2;
  }
}

/**
 * The files in the data directory that decorate the running service's group views: the user's keeps
 * (`corral keep`), the sessions the agent hooks reported ended, and the tasks they said they keep running.
 * Each is read again only when its modification time moved, so a view built every second costs a stat
 * per file.
 */
export class DecorationFiles {
  private readonly keepList: ReadWhenChanged<KeepRecord[]>;
  private readonly ended: ReadWhenChanged<EndedSessions>;
  private readonly tasks: ReadWhenChanged<AgentTaskLists>;

  constructor(dataDir: string) {
    this.keepList = new ReadWhenChanged(keepsPath(dataDir), () => loadKeeps(dataDir), []);
    this.ended = new ReadWhenChanged(endedSessionsPath(dataDir), () => loadEndedSessions(dataDir), new Map());
    this.tasks = new ReadWhenChanged(agentTasksPath(dataDir), () => loadAgentTasks(dataDir), new Map());
  }

  /** The keep list, read again only when the file changed (a `corral keep` while Corral runs). */
  keeps(): KeepRecord[] {
    return this.keepList.get();
  }

  /** Forgets the keep list read last: the service just wrote it (mtime may not move within a tick). */
  keepsChanged(): void {
    this.keepList.forget();
  }

  /** The ended sessions the hooks recorded, read again only when the file changed. */
  endedSessions(): EndedSessions {
    return this.ended.get();
  }

  /** The task lists the agents' hooks reported (Stop's `background_tasks[]`), read again when changed. */
  agentTasks(): AgentTaskLists {
    return this.tasks.get();
  }
}

function mtimeOf(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
}
