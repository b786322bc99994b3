import { ProcReadFailed } from './read-failure';

/**
 * Pids a read could not look at for a reason of Corral's own (ProcReadFailed: out of descriptors), not the
 * process's. Such a pid is neither gone nor new: the sampler reads it again at every look (`withUnread`)
 * until a read answers, found or gone.
 */
export class UnreadPids {
  private readonly pids = new Set<number>();
  private last: string | null = null;
  /** The table could not be listed, and has not been since. */
  private unlisted = false;

  get set(): ReadonlySet<number> {
    return this.pids;
  }

  /** Why the latest of them (or a listing) could not be read; null while every pid was, and the table listed. */
  get failure(): string | null {
    return this.pids.size > 0 || this.unlisted ? this.last : null;
  }

  /** `read()` for `pid`; null, and the pid left unread, when it threw ProcReadFailed. */
  read<R>(pid: number, read: () => R | null): R | null {
    try {
      const found = read();
      if (this.pids.size > 0) this.pids.delete(pid);
      return found;
    } catch (err) {
      if (!(err instanceof ProcReadFailed)) throw err;
      this.note(pid, err);
      return null;
    }
  }

  note(pid: number, failure: ProcReadFailed): void {
    this.last = failure.message;
    this.pids.add(pid);
  }

  /** A listing of the table that failed: a failure until one succeeds (`listed`). */
  unlistable(failure: ProcReadFailed): ProcReadFailed {
    this.last = failure.message;
    this.unlisted = true;
    return failure;
  }

  listed(): void {
    this.unlisted = false;
  }

  /** `pids` and the pids left unread, once each: a look reads them again. */
  withUnread(pids: number[]): number[] {
    if (this.pids.size === 0) return pids;
    const asked = new Set(pids);
    for (const pid of this.pids) if (!asked.has(pid)) pids.push(pid);
    return pids;
  }
}
