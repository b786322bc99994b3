import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname } from 'node:path';

/** The file's text, or '' when it does not exist yet (any other read error is thrown). */
export function readSettingsText(path: string): { text: string; exists: boolean } {
  try {
    return { text: readFileSync(path, 'utf8'), exists: true };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { text: '', exists: false };
    throw err;
  }
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
  try {
    mode = statSync(path).mode & 0o7777;
    backup = `${path}.corral-backup-${now}`;
    copyFileSync(path, backup);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const tmp = `${path}.corral-tmp-${process.pid}`;
  writeFileSync(tmp, text, { mode: mode ?? 0o644 });
  if (mode !== undefined) chmodSync(tmp, mode);
  renameSync(tmp, path);
  return backup;
}
