import { spawn } from 'node:child_process';

export interface ListCommand {
  file: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** Run as this user and group (when Corral runs as root and the agent as another user). */
  uid?: number;
  gid?: number;
  timeoutMs: number;
  /** Stops the command early (as past its timeout); the reason is the problem said. */
  stop?: AbortSignal;
}

export type ListCommandResult = { stdout: string } | { problem: string };

/** More than this much output is no session list. */
const MAX_OUTPUT_BYTES = 1024 * 1024;

/**
 * Runs an agent's list command to its end, never waiting past `timeoutMs` or `stop`: the command leads
 * a process group of its own (detached), and a command still running then (or printing too much) is
 * killed by that group's id, which is its own pid, and nothing else. Never throws.
 */
export function runListCommand(command: ListCommand): Promise<ListCommandResult> {
  return new Promise((resolve) => {
    const { stop } = command;
    if (stop?.aborted) {
      resolve({ problem: String(stop.reason) });
      return;
    }
    let settled = false;
    const done = (result: ListCommandResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stop?.removeEventListener('abort', stopped);
      resolve(result);
    };
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(command.file, command.args, {
        cwd: command.cwd,
        env: command.env,
        detached: true,
        stdio: ['ignore', 'pipe', 'ignore'],
        ...(command.uid !== undefined ? { uid: command.uid, gid: command.gid } : {}),
      });
    } catch (err) {
      resolve({ problem: `could not start: ${String(err)}` });
      return;
    }
    const pgid = child.pid;
    let exited = false;
    // The group this call created, whose leader is the command itself (not yet reaped, so its pid is not
    // anyone else's): never 0, 1 or Corral's own. Once the leader is reaped nothing is signalled.
    const killGroup = (): void => {
      child.stdout?.destroy();
      if (exited || pgid === undefined || pgid <= 1 || pgid === process.pid) return;
      try {
        process.kill(-pgid, 'SIGKILL');
      } catch {
        // ESRCH: the group is gone already.
      }
    };
    const timer = setTimeout(() => {
      killGroup();
      done({ problem: `no answer within ${command.timeoutMs} ms (stopped)` });
    }, command.timeoutMs);
    const stopped = (): void => {
      killGroup();
      done({ problem: `${String(stop!.reason)} (stopped)` });
    };
    stop?.addEventListener('abort', stopped, { once: true });
    const chunks: Buffer[] = [];
    let size = 0;
    child.stdout?.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_OUTPUT_BYTES) {
        killGroup();
        done({ problem: `more than ${MAX_OUTPUT_BYTES} bytes of output (stopped)` });
      } else chunks.push(chunk);
    });
    child.on('exit', () => {
      exited = true;
    });
    child.on('error', (err) => done({ problem: `could not start: ${err.message}` }));
    child.on('close', (code, signal) => {
      if (code === 0) done({ stdout: Buffer.concat(chunks).toString('utf8') });
      else done({ problem: signal ? `ended by ${signal}` : `exited with status ${code}` });
    });
  });
}
