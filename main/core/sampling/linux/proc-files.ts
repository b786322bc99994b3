import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/**
 * Synchronous reads of small /proc files into one reused buffer. Synchronous on purpose: /proc
 * reads never block on disk, and one open/read/close per file is the kernel floor; promise-based
 * readers cost several times more CPU per process.
 */
export class ProcFileReader {
  private buf = Buffer.allocUnsafe(64 * 1024);

  /** Reads a whole file; returns its length in `this.bytes`, or -1 if the process is gone or unreadable. */
  read(path: string, wantOwner = false): { length: number; uid: number } | null {
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch {
      return null;
    }
    try {
      let length = 0;
      for (;;) {
        if (length === this.buf.length) {
          const bigger = Buffer.allocUnsafe(this.buf.length * 2);
          this.buf.copy(bigger, 0, 0, length);
          this.buf = bigger;
        }
        const n = readSync(fd, this.buf, length, this.buf.length - length, null);
        if (n === 0) break;
        length += n;
      }
      const uid = wantOwner ? fstatSync(fd).uid : -1;
      return { length, uid };
    } catch {
      // ESRCH (the process exited between open and read) or EACCES: both mean "not readable now".
      return null;
    } finally {
      closeSync(fd);
    }
  }

  get bytes(): Buffer {
    return this.buf;
  }
}
