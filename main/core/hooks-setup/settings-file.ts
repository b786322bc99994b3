import { chmodSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { isNotFound, isRefusal, readUntrustedFile } from '../sampling/untrusted-file';

/** Agents' settings files are a few kilobytes. */
const SETTINGS_MAX_BYTES = 16 * 1024 * 1024;

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
 * Writes `text` to `path`: first a backup of the current file beside it (`<file>.corral-backup-<ms>`),
 * then a temporary file renamed over the original, so the agent never reads half a file. The
 * original's permission bits are kept. Returns the backup's path (null when there was no file).
 */
export function writeSettingsText(path: string, text: string, now = Date.now()): string | null {
  mkdirSync(dirname(path), { recursive: true });
  let backup: string | null = null;
  let mode: number | undefined;
  // The backup is of what is there now, read as readSettingsText reads it: never a wait on a FIFO
  // swapped in since.
  const current = readUntrustedFile(path, { maxBytes: SETTINGS_MAX_BYTES, followSymlink: true });
  if (!isRefusal(current)) {
    mode = current.mode & 0o7777;
    backup = `${path}.corral-backup-${now}`;
    writeFileSync(backup, current.bytes, { mode, flag: 'wx' });
  } else if (current.refused !== 'ENOENT') {
    throw Object.assign(new Error(`cannot read ${path} (${current.refused})`), { code: current.refused });
  }
  const tmp = `${path}.corral-tmp-${process.pid}`;
  writeFileSync(tmp, text, { mode: mode ?? 0o644 });
  if (mode !== undefined) chmodSync(tmp, mode);
  renameSync(tmp, path);
  return backup;
}
