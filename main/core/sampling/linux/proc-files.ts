import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/**
 * Synchronous reads of small /proc files into one reused buffer. Synchronous on purpose: /proc
 * reads never block on disk, and one open/read/close per file is the kernel floor; promise-based
 * readers cost several times more CPU per process.
 */
export class ProcFileReader {
  private buf = Buffer.allocUnsafe(64 * 1024);

  /**
   * Reads a whole file into `this.bytes`; null if the process is gone or the file unreadable.
   * `singleShot`: the kernel writes the file whole in one read (stat, loadavg: single_open files), so
   * a read that leaves room in the buffer is the end and no second read is needed to see EOF.
   */
  read(path: string, { wantOwner = false, singleShot = false } = {}): { length: number; uid: number } | null {
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
        const room = this.buf.length - length;
        const n = readSync(fd, this.buf, length, room, null);
        length += n;
        if (n === 0 || (singleShot && n < room)) break;
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

  /** Re-reads an already open single-shot file from its start (pread): its length, or null when gone. */
  reread(fd: number): number | null {
    try {
      return readSync(fd, this.buf, 0, this.buf.length, 0);
    } catch {
      return null;
    }
  }

  /** Opens a file to keep and re-read; null when the process is gone. */
  static open(path: string): number | null {
    try {
      return openSync(path, 'r');
    } catch {
      return null;
    }
  }

  get bytes(): Buffer {
    return this.buf;
  }
}
