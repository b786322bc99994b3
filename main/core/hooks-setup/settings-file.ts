import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isNotFound, isRefusal, readUntrustedFile } from '../files/untrusted-file';
import { lstatOrNull } from '../storage/own-data-dir';

/** Agents' settings files are a few kilobytes. */
const SETTINGS_MAX_BYTES = 16 * 1024 * 1024;
/** A file that holds a secret (an http hook's token), and every backup of a settings file, is the user's alone. */
const SECRET_MODE = 0o600;
const BACKUP_INFIX = '.corral-backup-';

/**
 * The file's text, or '' when it does not exist yet. Anything else that is not a regular file of sane
 * size (a FIFO, a device, a symlink loop) is an error thrown, never a wait.
 */
export function readSettingsText(path: string): { text: string; exists: boolean } {
  const file = readUntrustedFile(path, { maxBytes: SETTINGS_MAX_BYTES, followSymlink: true });
  if (!isRefusal(file)) return { text: file.bytes.toString('utf8'), exists: true };
  if (file.refused === 'ENOENT') return { text: '', exists: false };
  const why = isNotFound(file) ? 'a parent is not a directory' : file.refused;
  throw Object.assign(new Error(`cannot read ${path} (${why})`), { code: file.refused });
}

/**
 * The file a write to `path` replaces: `path` itself, or, when it is a symbolic link (a dotfiles
 * checkout's `~/.claude/settings.json → dotfiles/…`), the file it leads to, which must then be a
 * regular file of the user's own: renaming over the link would turn it into a plain file.
 */
export function settingsWriteTarget(path: string): string {
  const link = lstatOrNull(path);
  if (!link?.isSymbolicLink()) return path;
  let target: string;
  try {
    target = realpathSync(path);
  } catch (err) {
    throw new Error(`it is a link to a file that cannot be reached (${(err as NodeJS.ErrnoException).code})`);
  }
  const st = lstatSync(target);
  if (!st.isFile()) throw new Error(`it is a link to ${target}, which is not a regular file`);
  const uid = process.geteuid?.();
  if (uid !== undefined && st.uid !== uid)
    throw new Error(`it is a link to ${target}, which belongs to uid ${st.uid}, not to you (uid ${uid})`);
  return target;
}

/** Earlier backups beside `path` (which may hold an http hook's token) made the user's alone. */
function protectBackups(path: string): void {
  const uid = process.geteuid?.();
  const prefix = `${basename(path)}${BACKUP_INFIX}`;
  for (const name of readdirSync(dirname(path))) {
    if (!name.startsWith(prefix)) continue;
    const st = lstatOrNull(join(dirname(path), name));
    if (st?.isFile() && (uid === undefined || st.uid === uid) && (st.mode & 0o077) !== 0)
      chmodSync(join(dirname(path), name), SECRET_MODE);
  }
}

/**
 * A settings file that holds a secret, left as it is otherwise, made readable by the user alone (and
 * its earlier backups): what an unchanged `hooks install --http` still owes a file written 0644.
 */
export function protectSecretSettings(path: string): void {
  const target = settingsWriteTarget(path);
  const st = lstatOrNull(target);
  if (st?.isFile() && (st.mode & 0o077) !== 0) chmodSync(target, SECRET_MODE);
  protectBackups(path);
}

/**
 * Writes `text` to `path`: first a backup of the current file beside it (`<file>.corral-backup-<ms>`,
 * 0600: it may hold a token), then a temporary file renamed over the original (over a link's target,
 * in the target's folder), so the agent never reads half a file. The original's permission bits are
 * kept, but a file that holds a secret is 0600 whatever it was. Returns the backup's path (null when
 * there was no file).
 */
export function writeSettingsText(
  path: string,
  text: string,
  { now = Date.now(), holdsSecret = false }: { now?: number; holdsSecret?: boolean } = {},
): string | null {
  const target = settingsWriteTarget(path);
  mkdirSync(dirname(target), { recursive: true });
  let backup: string | null = null;
  let mode: number | undefined;
  // The backup is of what is there now, read as readSettingsText reads it: never a wait on a FIFO
  // swapped in since.
  const current = readUntrustedFile(target, { maxBytes: SETTINGS_MAX_BYTES, followSymlink: true });
  if (!isRefusal(current)) {
    mode = current.mode & 0o7777;
    backup = `${path}${BACKUP_INFIX}${now}`;
    writeFileSync(backup, current.bytes, { mode: SECRET_MODE, flag: 'wx' });
  } else if (current.refused !== 'ENOENT') {
    throw Object.assign(new Error(`cannot read ${path} (${current.refused})`), { code: current.refused });
  }
  if (holdsSecret) {
    mode = SECRET_MODE;
    protectBackups(path);
  }
  const tmp = `${target}.corral-tmp-${process.pid}`;
  rmSync(tmp, { force: true });
  writeFileSync(tmp, text, { mode: SECRET_MODE, flag: 'wx' });
  chmodSync(tmp, mode ?? 0o644);
  renameSync(tmp, target);
  return backup;
}
