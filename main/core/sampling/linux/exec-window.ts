import { readInExecWindow, type ExecWindowLook } from '../../analysis/exec-window';

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
