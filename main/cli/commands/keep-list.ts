import { homedir } from 'node:os';
import { resolveDataDir } from '../../core/storage/data-dir';
import { loadKeeps } from '../../core/storage/keeps';
import { DataDirRefused } from '../../core/storage/own-data-dir';
import type { KeepRecord } from '../../core/analysis/kept-marks';

/** The data directory the CLI reads and writes (CORRAL_DATA_DIR, else the per-user one). */
export function cliDataDir(): string {
  return resolveDataDir(process.env, process.platform, homedir());
}

/** The user's keeps (`corral keep`); none when the list is missing, or unreadable (said once on stderr). */
export function keepsOrNone(): KeepRecord[] {
  try {
    return loadKeeps(cliDataDir());
  } catch (err) {
    if (err instanceof DataDirRefused)
      process.stderr.write(`corral: ${err.message} No group is shown kept.\n`);
    return [];
  }
}
