import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { ProcReadFailed, readFailureOf } from '../read-failure';

/**
 * What an open or read of /proc/<pid>/… fails with when the process is gone (ENOENT, ESRCH; ENOTDIR for a
 * pid that is a thread's file) or is not ours to read (EACCES, EPERM): the answer is about the process.
 * Anything else (EMFILE and ENFILE for a full descriptor table, ENOMEM, EIO…) is about Corral: the
 * process was not looked at, and is neither gone nor unreadable.
 */
const ABOUT_THE_PROCESS = new Set(['ENOENT', 'ESRCH', 'ENOTDIR', 'EACCES', 'EPERM']);

/** Null for an error about the process (gone, not ours); throws ProcReadFailed for one about Corral. */
function aboutTheProcess(err: unknown, path: string): null {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (typeof code === 'string' && ABOUT_THE_PROCESS.has(code)) return null;
  throw readFailureOf(err, path);
}

/** Whether /proc shows the pid now: no descriptor taken and no Error built when it does not. */
export function procHasPid(procRoot: string, pid: number): boolean {
  return existsSync(`${procRoot}/${pid}`);
}

/**
 * Synchronous reads of small /proc files into one reused buffer. Synchronous on purpose: /proc
 * reads never block on disk, and one open/read/close per file is the kernel floor; promise-based
 * readers cost several times more CPU per process.
 */
export class ProcFileReader {
  private buf = Buffer.allocUnsafe(64 * 1024);

  /**
   * Reads a whole file into `this.bytes`; null if the process is gone or the file not ours to read.
   * Throws ProcReadFailed when Corral could not look (out of descriptors: EMFILE, ENFILE).
   * `singleShot`: the kernel writes the file whole in one read (stat, loadavg: single_open files), so
   * a read that leaves room in the buffer is the end and no second read is needed to see EOF.
   */
  read(path: string, { wantOwner = false, singleShot = false } = {}): { length: number; uid: number } | null {
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch (err) {
      return aboutTheProcess(err, path);
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
    } catch (err) {
      // ESRCH (the process exited between open and read) or EACCES: both mean "not readable now".
      return aboutTheProcess(err, path);
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

  /** Opens a file to keep and re-read; null when the process is gone; throws ProcReadFailed as read does. */
  static open(path: string): number | null {
    try {
      return openSync(path, 'r');
    } catch (err) {
      return aboutTheProcess(err, path);
    }
  }

  /** A descriptor to keep, or null when none can be had now (the process gone, or no descriptor free). */
  static openIfCan(path: string): number | null {
    try {
      return ProcFileReader.open(path);
    } catch (err) {
      if (err instanceof ProcReadFailed) return null;
      throw err;
    }
  }

  get bytes(): Buffer {
    return this.buf;
  }
}
