import { accessSync, constants } from 'node:fs';
import { IncidentTable } from './incident-table';
import { checkOwnFileIfPresent, DataDirRefused, ensureOwnDataDir } from './own-data-dir';
import { moveDatabaseAside } from './move-aside';
import { describeError, isDamage } from './sqlite-errors';

export type DiskOpening =
  { table: IncidentTable; recovered: string | null } | { table: null; problem: string };

/** What stops Corral writing in `dir`: its permissions when they do, else what SQLite said. */
export function whyUnwritable(dir: string, err: unknown): string {
  try {
    accessSync(dir, constants.W_OK);
  } catch (accessErr) {
    const code = (accessErr as NodeJS.ErrnoException).code ?? 'error';
    return `the directory ${dir} is not writable (${code})`;
  }
  return describeError(err);
}

/**
 * Opens the history file in `dir`, creating both if needed. A damaged file is moved aside (never
 * deleted) and a fresh one started; anything else that stops Corral writing there is returned as a
 * problem, so the caller can keep incidents in memory instead.
 */
export function openOnDisk(
  dir: string,
  path: string,
  now: number,
  { reader = false }: { reader?: boolean } = {},
): DiskOpening {
  try {
    ensureOwnDataDir(dir);
    checkOwnFileIfPresent(path);
  } catch (err) {
    if (err instanceof DataDirRefused) return { table: null, problem: err.message };
    return { table: null, problem: `cannot create the data directory ${dir}: ${describeError(err)}` };
  }
  try {
    return { table: IncidentTable.openFile(path, { reader }), recovered: null };
  } catch (err) {
    // A reader never moves the writer's file aside.
    if (!isDamage(err) || reader)
      return { table: null, problem: `cannot save to ${path}: ${whyUnwritable(dir, err)}` };
    const damage = describeError(err);
    let aside: string;
    try {
      aside = moveDatabaseAside(path, now);
    } catch (moveErr) {
      return {
        table: null,
        problem: `${path} is damaged (${damage}) and could not be moved aside: ${describeError(moveErr)}`,
      };
    }
    const recovered = `The incident history ${path} was damaged (${damage}); it was moved to ${aside} and a new history was started.`;
    try {
      return { table: IncidentTable.openFile(path), recovered };
    } catch (again) {
      return {
        table: null,
        problem: `${recovered} But the new file could not be created: ${describeError(again)}`,
      };
    }
  }
}
