import type { ThreadedPoll } from '../os/threaded-poll';

/** Whether an exit watch's worker thread waits now, and when it stopped (for tests and the bench). */
export interface ExitWaitState {
  waitingInThread: boolean;
  stopped: Promise<void>;
}

/** No exit watch yet: no thread waits, and none is left to stop. */
export const NO_EXIT_WAIT: ExitWaitState = Object.freeze({
  waitingInThread: false,
  stopped: Promise.resolve(),
});

/**
 * What the exit watches (pidfds on Linux, a kqueue on macOS) share: the poll in a worker thread they
 * wait in while someone waits for exits (at most one; a watch drops it when it fails), the `onExit` to
 * call, and how that wait stops.
 */
export abstract class ThreadedExitWatch {
  /** The blocking poll in a worker thread, once someone waits for exits (waitInThread). */
  protected poll: ThreadedPoll | null = null;
  protected onExit: (() => void) | null = null;
  private stopped: Promise<void> = Promise.resolve();

  /** Stops the worker's poll; its waker is closed once the poll returned (`threadState.stopped`). */
  stopWaiting(): void {
    this.onExit = null;
    const poll = this.poll;
    if (!poll) return;
    this.poll = null;
    poll.close();
    this.stopped = poll.whenClosed();
  }

  /** Whether a worker thread is blocked in the poll now, and when it stopped. */
  get threadState(): ExitWaitState {
    return { waitingInThread: this.poll?.waiting ?? false, stopped: this.stopped };
  }
}
