import { existsSync, renameSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';

// SQLite keeps a WAL database in up to three files; they only make sense together.
const SIDECARS = ['', '-wal', '-shm'];

function stamp(at: number): string {
  return new Date(at)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
}

/**
 * Renames a damaged database and its sidecar files to `<name>-corrupt-<UTC time>.db` (never deletes
 * them: they are the user's data). Returns the new path of the main file.
 */
export function moveDatabaseAside(path: string, at: number): string {
  const ext = extname(path);
  const stem = join(dirname(path), basename(path, ext));
  let target = `${stem}-corrupt-${stamp(at)}${ext}`;
  for (let n = 2; SIDECARS.some((s) => existsSync(target + s)); n++) {
    target = `${stem}-corrupt-${stamp(at)}-${n}${ext}`;
  }
  // Any failure throws before a fresh database is created, so a stale WAL is never replayed into it.
  for (const sidecar of SIDECARS) {
    if (existsSync(path + sidecar)) renameSync(path + sidecar, target + sidecar);
  }
  return target;
}
