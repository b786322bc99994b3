/** What a look at a process shows that tells execve's window (a record, or a stat and argv just read). */
export interface ExecWindowLook {
  pid: number;
  ppid: number;
  state: string;
  argv: readonly string[];
}

/**
 * Was this process read inside execve's window? Past the point of no return, begin_new_exec
 * (fs/exec.c) installs the new image's memory (exec_mmap) and sets the new name (__set_task_comm);
 * the new argument and environment areas are set up only later, by create_elf_tables
 * (fs/binfmt_elf.c: mm->arg_start/arg_end, then env_start/env_end). Until then env_end is 0, and
 * /proc/<pid>/cmdline and environ read empty (fs/proc/base.c: get_mm_cmdline and environ_read
 * `if (!mm->env_end) return 0`). The window lasts microseconds, more under load: read it again.
 *
 * A settled process always shows at least one argument (an empty argv reads as one empty string since
 * Linux 5.18 forces argv[0]), except zombies and kernel threads (children of kthreadd, pid 2), which
 * have no argument area at all.
 */
export function readInExecWindow(p: ExecWindowLook): boolean {
  return p.argv.length === 0 && p.state !== 'Z' && p.ppid !== 2 && p.pid !== 2;
}

/**
 * A record whose command line and environment both read empty: read inside execve's window (and never
 * a macOS process whose arguments were refused, which reads as no argv and no environment).
 */
export function recordInExecWindow(r: ExecWindowLook & { environReadable: boolean }): boolean {
  return r.environReadable && readInExecWindow(r);
}

/**
 * The waits before each re-read of a process read inside execve's window, in ms: the first re-read
 * comes once the rest of the batch is read, the last about 15 ms after, far inside any hook's deadline
 * (the http hook's 2 s, the client's 1 s read).
 */
export const EXEC_WINDOW_REREAD_WAITS_MS: readonly number[] = [0, 1, 4, 10];

/** What runs before each re-read, given the wait planned for it: a sleep, or (in tests) the kernel moving on. */
export type BeforeReread = (waitMs: number) => void;

const sleepCell = new Int32Array(new SharedArrayBuffer(4));
/** Sleeps without spinning: the thread waits on a cell no one ever wakes. */
export const sleepBeforeReread: BeforeReread = (waitMs) => {
  if (waitMs > 0) Atomics.wait(sleepCell, 0, 0, waitMs);
};

/**
 * `records` with each one read inside execve's window read again (`readAgain`, null when it is gone),
 * a bounded number of times (one per entry of `waits`); one still in the window after the last is kept
 * as read, and its readers decide what an empty argv means.
 */
export function rereadExecWindow<R extends ExecWindowLook>(
  records: R[],
  readAgain: (pid: number) => R | null,
  beforeReread: BeforeReread = sleepBeforeReread,
  waits: readonly number[] = EXEC_WINDOW_REREAD_WAITS_MS,
): R[] {
  let pending = records.filter(readInExecWindow).map((r) => r.pid);
  if (pending.length === 0) return records;
  const byPid = new Map(records.map((r) => [r.pid, r] as const));
  for (const wait of waits) {
    if (pending.length === 0) break;
    beforeReread(wait);
    const still: number[] = [];
    for (const pid of pending) {
      const again = readAgain(pid);
      if (again) byPid.set(pid, again);
      else byPid.delete(pid);
      if (again && readInExecWindow(again)) still.push(pid);
    }
    pending = still;
  }
  return records.flatMap((r) => byPid.get(r.pid) ?? []);
}
