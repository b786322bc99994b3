import { closeSync, constants, fstatSync, lstatSync, opendirSync, openSync, readSync } from 'node:fs';
import { inMacPrivacyFolder } from './mac-privacy-folders';

/**
 * The one way to read a file Corral did not write (an agent's session files, transcripts and MCP
 * configurations, token files, hook records, agents' settings): whoever can start a process can point
 * Corral at a path of their choosing, and plant a FIFO, a device, a symlink loop or a huge file there.
 *
 * - opened with O_NONBLOCK, so opening a FIFO or a device never waits for a writer or for hardware
 *   (open(2)); O_NOFOLLOW unless a symlink at the last component is expected (a user's own config);
 * - the opened descriptor is fstat'ed: only a regular file is read, so a file swapped for a FIFO after it
 *   was found is refused too (no window between a check by path and the open);
 * - of at most `maxBytes` (refused when larger), owned by `owner` (or root) where that is known;
 * - never inside a folder macOS guards with a privacy prompt (mac-privacy-folders.ts): refused as
 *   'mac-privacy-folder' without touching it;
 * - never throws: every failure comes back as a Refusal, a decoration's "not known".
 *
 * Reads of regular files on local filesystems complete; O_NONBLOCK does not bound a hung network or FUSE
 * mount (the kernel ignores it for regular files), which callers bound by reading little and rarely.
 */

/** Why a file was not read: the errno code of the open (ENOENT, ELOOP, ENAMETOOLONG, ENOTDIR, EACCES…) or what it was. */
export type Refusal = { refused: string };

export interface UntrustedFileRules {
  /** Refuse a file larger than this (bytes). */
  maxBytes: number;
  /** Refuse a file owned by another uid than this one (root's files are accepted). */
  owner?: number;
  /** Accept a symlink as the last component (a user's own config file may be one). Default: refuse it. */
  followSymlink?: boolean;
}

export interface UntrustedFile {
  bytes: Buffer;
  size: number;
  mtimeMs: number;
  /** Permission bits and owner, of the file read (not of whatever the path names now). */
  mode: number;
  uid: number;
}

/** An open regular file, for reading a range (a transcript's tail): close it with `closeUntrusted`. */
export interface OpenedFile {
  fd: number;
  size: number;
  mtimeMs: number;
  mode: number;
  uid: number;
}

const NOT_FOUND = new Set(['ENOENT', 'ENOTDIR']);
const PRIVACY_REFUSAL: Refusal = { refused: 'mac-privacy-folder' };

/** ENOENT, and ENOTDIR (a path through a file): the file is simply not there. */
export function isNotFound(refusal: Refusal): boolean {
  return NOT_FOUND.has(refusal.refused);
}

export function isRefusal<T>(result: T | Refusal): result is Refusal {
  return typeof result === 'object' && result !== null && 'refused' in result;
}

/** The whole file, when it is a regular file within the rules. */
export function readUntrustedFile(path: string, rules: UntrustedFileRules): UntrustedFile | Refusal {
  const opened = openUntrustedFile(path, rules);
  if (isRefusal(opened)) return opened;
  try {
    const bytes = readRange(opened, 0, opened.size);
    if (isRefusal(bytes)) return bytes;
    const { size, mtimeMs, mode, uid } = opened;
    return { bytes, size, mtimeMs, mode, uid };
  } finally {
    closeUntrusted(opened);
  }
}

/** Opens `path` for reading a range of it; `maxBytes` may be Infinity where only a budgeted range is read. */
export function openUntrustedFile(path: string, rules: UntrustedFileRules): OpenedFile | Refusal {
  if (inMacPrivacyFolder(path)) return PRIVACY_REFUSAL;
  let fd: number;
  try {
    const noFollow = rules.followSymlink ? 0 : constants.O_NOFOLLOW;
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | noFollow);
  } catch (err) {
    return { refused: codeOf(err) };
  }
  try {
    const stat = fstatSync(fd);
    let refusal: string | null = null;
    if (!stat.isFile()) refusal = 'not-a-regular-file';
    else if (stat.size > rules.maxBytes) refusal = 'too-large';
    else if (rules.owner !== undefined && stat.uid !== rules.owner && stat.uid !== 0)
      refusal = 'foreign-owner';
    if (refusal === null)
      return { fd, size: stat.size, mtimeMs: stat.mtimeMs, mode: stat.mode, uid: stat.uid };
    closeSync(fd);
    return { refused: refusal };
  } catch (err) {
    closeSync(fd);
    return { refused: codeOf(err) };
  }
}

/**
 * Bytes [from, to) of an opened file: fewer when the file shrank meanwhile. A file grown meanwhile is
 * read no further than `to`, so the budget the caller chose holds.
 */
export function readRange(file: OpenedFile, from: number, to: number): Buffer | Refusal {
  const buf = Buffer.allocUnsafe(Math.max(0, to - from));
  let done = 0;
  try {
    while (done < buf.length) {
      const n = readSync(file.fd, buf, done, buf.length - done, from + done);
      if (n === 0) break;
      done += n;
    }
  } catch (err) {
    return { refused: codeOf(err) };
  }
  return buf.subarray(0, done);
}

export function closeUntrusted(file: OpenedFile): void {
  try {
    closeSync(file.fd);
  } catch {
    // EBADF cannot happen for a descriptor this module opened; EIO on close loses nothing read.
  }
}

/** What is at `path`, without following a final symlink and without throwing: for "is there a .git here". */
export function entryKind(path: string): 'file' | 'directory' | 'other' | Refusal {
  if (inMacPrivacyFolder(path)) return PRIVACY_REFUSAL;
  try {
    const stat = lstatSync(path);
    return stat.isFile() ? 'file' : stat.isDirectory() ? 'directory' : 'other';
  } catch (err) {
    return { refused: codeOf(err) };
  }
}

/**
 * The names in a directory, read no further than `maxEntries` (refused as 'too-many-entries' past it):
 * a folder of millions of entries costs no more than the budget.
 */
export function listUntrustedDir(path: string, maxEntries: number): string[] | Refusal {
  if (inMacPrivacyFolder(path)) return PRIVACY_REFUSAL;
  let dir;
  try {
    dir = opendirSync(path, { bufferSize: 256 });
  } catch (err) {
    return { refused: codeOf(err) };
  }
  const names: string[] = [];
  try {
    for (let entry = dir.readSync(); entry !== null; entry = dir.readSync()) {
      if (names.length === maxEntries) return { refused: 'too-many-entries' };
      names.push(entry.name);
    }
    return names;
  } catch (err) {
    return { refused: codeOf(err) };
  } finally {
    dir.closeSync();
  }
}

function codeOf(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' ? code : 'EIO';
}

/** Told of a file refused for another reason than its absence: a decoration shown as not known. */
export type NoteRefusal = (path: string, refusal: Refusal) => void;
