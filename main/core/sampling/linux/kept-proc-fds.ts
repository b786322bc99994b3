import { closeSync } from 'node:fs';
import { keptFds } from './kept-fds';
import { ProcFileReader } from './proc-files';

/**
 * Open /proc/<pid>/stat and children descriptors, re-read with pread: one system call a process instead
 * of three. A descriptor stays tied to its process, so after that process dies it reads ESRCH, never a
 * new process that reused the pid. Within the process-wide budget (kept-fds.ts); past it, files are
 * opened and read once. `onGone` is told of a process whose kept descriptor read ESRCH.
 */
export class KeptProcFds {
  private readonly statFds = new Map<number, number>();
  private readonly childFds = new Map<number, number>();

  constructor(
    private readonly procRoot: string,
    private readonly reader: ProcFileReader,
    private readonly onGone: (pid: number) => void,
  ) {}

  hasStat(pid: number): boolean {
    return this.statFds.has(pid);
  }

  get statCount(): number {
    return this.statFds.size;
  }

  statPids(): IterableIterator<number> {
    return this.statFds.keys();
  }

  /** Every pid with a kept descriptor of either kind. */
  keptPids(): number[] {
    return [...this.statFds.keys(), ...this.childFds.keys()];
  }

  /** Re-reads the kept stat descriptor of a process, for its parent check; null when gone or none kept. */
  rereadStat(pid: number): number | null {
    const fd = this.statFds.get(pid);
    return fd === undefined ? null : this.reader.reread(fd);
  }

  /** The stat file's length in the reader's bytes, through a kept descriptor when one can be kept. */
  readStat(pid: number): number | null {
    const kept = this.statFds.get(pid);
    if (kept !== undefined) {
      const length = this.reader.reread(kept);
      if (length !== null) return length;
      // That process is gone; the pid may already belong to a new one, which a fresh open finds.
      this.onGone(pid);
    }
    const path = `${this.procRoot}/${pid}/stat`;
    if (keptFds.total < keptFds.budget) {
      const fd = ProcFileReader.open(path);
      if (fd === null) return null;
      this.statFds.set(pid, fd);
      keptFds.total++;
      return this.reader.reread(fd);
    }
    return this.reader.read(path, { singleShot: true })?.length ?? null;
  }

  /** The children file, kept open and re-read with pread like stat; a list too long for one read is read whole. */
  readChildren(pid: number): number | null {
    const path = `${this.procRoot}/${pid}/task/${pid}/children`;
    let fd = this.childFds.get(pid);
    if (fd === undefined && keptFds.total < keptFds.budget) {
      const opened = ProcFileReader.open(path);
      if (opened === null) return null;
      fd = opened;
      this.childFds.set(pid, fd);
      keptFds.total++;
    }
    if (fd !== undefined) {
      const length = this.reader.reread(fd);
      if (length === null) {
        this.onGone(pid);
        return null;
      }
      if (length < this.reader.bytes.length) return length;
    }
    return this.reader.read(path)?.length ?? null;
  }

  /** Closes the descriptors kept for a process. */
  release(pid: number): void {
    const childFd = this.childFds.get(pid);
    if (childFd !== undefined) {
      this.childFds.delete(pid);
      keptFds.total--;
      closeQuietly(childFd);
    }
    const fd = this.statFds.get(pid);
    if (fd === undefined) return;
    this.statFds.delete(pid);
    keptFds.total--;
    closeQuietly(fd);
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Already closed: nothing to release.
  }
}
