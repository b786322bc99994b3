import { spawn } from 'node:child_process';
import { cpus } from 'node:os';

export interface BusyNeighbour {
  /** The loops' pids, each the leader of a process group of its own. */
  pids: number[];
  stop(): void;
}

/**
 * A busy neighbour: one shell loop per core (`perCore` of them) (`while :; do :; done`, the seed report's runaway), each in a
 * process group of its own and without an agent's markers, so every core is busy while the monitor
 * runs. stop() SIGKILLs exactly those groups, and so does this process's exit.
 */
export function startBusyNeighbour(perCore = 1): BusyNeighbour {
  const pids: number[] = [];
  for (let i = 0; i < perCore * cpus().length; i++) {
    const child = spawn('sh', ['-c', 'while :; do :; done'], {
      detached: true,
      stdio: 'ignore',
      env: { PATH: '/usr/bin:/bin', LC_ALL: 'C' },
    });
    child.unref();
    if (child.pid !== undefined && child.pid > 1) pids.push(child.pid);
  }
  let stopped = false;
  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    for (const pid of pids) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // ESRCH: already gone.
      }
    }
  };
  process.once('exit', stop);
  return { pids, stop };
}
