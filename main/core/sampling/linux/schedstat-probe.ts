import { closeSync } from 'node:fs';
import { keptFds } from './kept-fds';
import { ProcFileReader } from './proc-files';

/**
 * Whether a process has run since a given look, from /proc/<pid>/schedstat, which costs about half of
 * what stat costs to read. Its first field is the time the task has spent on a CPU (fs/proc/base.c,
 * proc_pid_schedstat: se.sum_exec_runtime). A process that has not run has changed nothing stat shows
 * of it but its parent (reparenting happens to it when its parent exits) and its resident size (reclaim
 * takes pages without it running): every state change, exec, setsid, new thread or exit is its own doing.
 *
 * It counts the thread-group leader alone, so it speaks for single-threaded processes only: a second
 * thread can burn CPU while the leader sleeps. Where the kernel keeps no scheduler statistics it writes
 * "0 0 0" for every task (proc_pid_schedstat, !sched_info_on()): the probe is then off.
 */
export class SchedstatProbe {
  private readonly fds = new Map<number, number>();
  /** Its own buffer: the text read stays whole while the sampler reads stat into its own. */
  private readonly reader = new ProcFileReader();
  readonly usable: boolean;

  constructor(private readonly procRoot: string) {
    this.usable = this.readsOwnStatistics(procRoot);
  }

  private readsOwnStatistics(procRoot: string): boolean {
    try {
      const own = this.reader.read(`${procRoot}/self/schedstat`, { singleShot: true });
      return own !== null && keepsStatistics(this.reader.bytes.toString('latin1', 0, own.length));
    } catch {
      // No descriptor to read it with (ProcReadFailed): the probe only saves work, stat is read instead.
      return false;
    }
  }

  /** The schedstat text of `pid` now, in a buffer reused by the next read; null when gone or unreadable. */
  read(pid: number): { bytes: Buffer; length: number } | null {
    let fd = this.fds.get(pid);
    if (fd === undefined) {
      if (keptFds.total >= keptFds.optionalBelow) return null;
      const opened = ProcFileReader.openIfCan(`${this.procRoot}/${pid}/schedstat`);
      if (opened === null) return null;
      fd = opened;
      this.fds.set(pid, fd);
      keptFds.total++;
    }
    const length = this.reader.reread(fd);
    if (length === null) {
      this.forget(pid);
      return null;
    }
    return { bytes: this.reader.bytes, length };
  }

  /**
   * The schedstat text of `pid` through the descriptor the probe keeps for it, or read once without
   * keeping one: descriptors are a budget the exit watch needs more (kept-fds.ts).
   */
  readNow(pid: number): { bytes: Buffer; length: number } | null {
    const fd = this.fds.get(pid);
    if (fd !== undefined) {
      const length = this.reader.reread(fd);
      return length === null ? null : { bytes: this.reader.bytes, length };
    }
    const read = this.reader.read(`${this.procRoot}/${pid}/schedstat`, { singleShot: true });
    return read === null ? null : { bytes: this.reader.bytes, length: read.length };
  }

  forget(pid: number): void {
    const fd = this.fds.get(pid);
    if (fd === undefined) return;
    this.fds.delete(pid);
    keptFds.total--;
    try {
      closeSync(fd);
    } catch {
      // Already closed: nothing to release.
    }
  }

  close(): void {
    for (const pid of [...this.fds.keys()]) this.forget(pid);
  }
}

/** Whether a schedstat line carries figures: "0 0 0" is what every task reads while statistics are off. */
export function keepsStatistics(line: string): boolean {
  const fields = line.trim().split(' ');
  return fields.length >= 3 && fields.some((f) => f !== '0');
}

/**
 * The second field of a schedstat text, the time the task waited on a run queue, runnable but not
 * running (sched_info.run_delay, ns), in ms; null when the text has no such field.
 */
export function runDelayMs(bytes: Buffer, length: number): number | null {
  let i = 0;
  while (i < length && bytes[i] !== 0x20) i++;
  i++;
  let ns = 0;
  let digits = 0;
  for (; i < length; i++, digits++) {
    const c = bytes[i]! - 0x30;
    if (c < 0 || c > 9) break;
    ns = ns * 10 + c;
  }
  return digits === 0 ? null : ns / 1e6;
}
