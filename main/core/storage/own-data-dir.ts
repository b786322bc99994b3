import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Corral's data directory is the user's own, and nothing in it is reached through a symbolic link.
 * A data directory inside another user's folder (HOME or CORRAL_DATA_DIR pointing there) would let
 * that user plant a link (`hooks/ended-sessions.jsonl` → a file of root's) and have Corral write
 * through it. So: the data directory, its enclosing folder and every folder and file Corral uses in
 * it must be owned by the current user (or root), the folders inside are never links,
 * and files are opened with O_NOFOLLOW and checked (a regular file of the user's) on the open
 * descriptor, not by a path that could be swapped after the check.
 */
export class DataDirRefused extends Error {}

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;
/** Files Corral reads back from its data directory are small records; more than this is not one. */
const MAX_RECORD_BYTES = 1024 * 1024;

function me(): number | undefined {
  return process.geteuid?.();
}

/** The file's lstat, or null when there is none. */
export function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

function refuse(path: string, why: string): never {
  throw new DataDirRefused(
    `Corral refuses the data directory ${path}: ${why}. Its data directory must be your own; set CORRAL_DATA_DIR to a directory you own.`,
  );
}

function refuseInside(path: string, why: string): never {
  throw new DataDirRefused(
    `Corral refuses ${path} in its data directory: ${why}. Corral writes only its own files there; move it aside.`,
  );
}

/** Root (uid 0) is trusted as the owner too: it can write anywhere already, and no other user can plant what it owns. */
function checkOwner(path: string, st: Stats, uid: number, what: string, inside = false): void {
  if (st.uid === uid || st.uid === 0) return;
  (inside ? refuseInside : refuse)(path, `${what} belongs to uid ${st.uid}, not to you (uid ${uid})`);
}

/** A folder Corral made inside the data directory: created if missing, never a link, the user's. */
function ensureOwnFolder(path: string, uid: number | undefined): void {
  let st = lstatOrNull(path);
  if (!st) {
    mkdirSync(path, { mode: 0o700 });
    st = lstatSync(path);
  }
  if (st.isSymbolicLink()) refuseInside(path, 'it is a symbolic link, and Corral never follows links there');
  if (!st.isDirectory()) refuseInside(path, 'it is not a directory');
  if (uid !== undefined) checkOwner(path, st, uid, 'it', true);
}

/** The nearest existing folder above the data directory must be the user's or root's: not inside another user's folder. */
function checkEnclosingFolder(dataDir: string, uid: number): void {
  for (let dir = dirname(dataDir); ; dir = dirname(dir)) {
    let st: Stats | null = null;
    try {
      st = statSync(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    if (st) {
      if (st.uid !== uid && st.uid !== 0) {
        refuse(dataDir, `it is inside ${dir}, which belongs to uid ${st.uid}, not to you (uid ${uid})`);
      }
      return;
    }
    if (dirname(dir) === dir) return;
  }
}

/**
 * Checks the data directory (creating it, and its parents, when missing) and the folders `parts`
 * inside it; returns the innermost path. Throws DataDirRefused saying why when any is not the user's.
 * The data directory itself may be a link the user made to a directory of their own.
 */
export function ensureOwnDataDir(dataDir: string, ...parts: string[]): string {
  const uid = me();
  if (uid !== undefined) checkEnclosingFolder(dataDir, uid);
  mkdirSync(dirname(dataDir), { recursive: true, mode: 0o700 });
  let st = lstatOrNull(dataDir);
  if (!st) {
    mkdirSync(dataDir, { mode: 0o700 });
    st = lstatSync(dataDir);
  }
  if (st.isSymbolicLink()) {
    if (uid !== undefined) checkOwner(dataDir, st, uid, 'the link');
    st = statSync(dataDir);
  }
  if (!st.isDirectory()) refuse(dataDir, 'it is not a directory');
  if (uid !== undefined) checkOwner(dataDir, st, uid, 'it');
  let path = dataDir;
  for (const part of parts) {
    path = join(path, part);
    ensureOwnFolder(path, uid);
  }
  return path;
}

/** Opens a file in the data directory without following a link, and checks the open file is the user's regular file. */
function openOwnFile(path: string, flags: number): number {
  let fd: number;
  try {
    fd = openSync(path, flags | NOFOLLOW | NONBLOCK, 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') {
      refuseInside(path, 'it is a symbolic link, and Corral never follows links there');
    }
    throw err;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) refuseInside(path, 'it is not a regular file');
    const uid = me();
    if (uid !== undefined) checkOwner(path, st, uid, 'it', true);
    return fd;
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

/** Refuses a file Corral will open by path (the SQLite history): a link, a special file or another's file. */
export function checkOwnFileIfPresent(path: string): void {
  const st = lstatOrNull(path);
  if (!st) return;
  if (st.isSymbolicLink()) refuseInside(path, 'it is a symbolic link, and Corral never follows links there');
  if (!st.isFile()) refuseInside(path, 'it is not a regular file');
  const uid = me();
  if (uid !== undefined) checkOwner(path, st, uid, 'it', true);
}

/** Appends `text` in one write (O_APPEND), creating the file (0600) when missing. */
export function appendOwnFile(path: string, text: string): void {
  const fd = openOwnFile(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}

/**
 * Replaces the file with `text` through a fresh temporary file and a rename (a rename never follows a
 * link). A write or rename that fails leaves no temporary file behind.
 */
export function writeOwnFileAtomically(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  rmSync(tmp, { force: true });
  try {
    const fd = openOwnFile(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL);
    try {
      writeSync(fd, text);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/** The file's text, or null when there is none; refuses a link, a special file, another's file or an oversized one. */
export function readOwnFile(path: string): string | null {
  let fd: number;
  try {
    fd = openOwnFile(path, constants.O_RDONLY);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  try {
    const size = fstatSync(fd).size;
    if (size > MAX_RECORD_BYTES) refuseInside(path, `it holds ${size} bytes, more than a record of Corral's`);
    const buffer = Buffer.alloc(size);
    let at = 0;
    while (at < size) {
      const n = readSync(fd, buffer, at, size - at, at);
      if (n === 0) break;
      at += n;
    }
    return buffer.subarray(0, at).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
