import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/** A regular file this user may execute; false for anything missing, unreadable or not a file. */
export function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Every executable `name` on PATH, in PATH's order (relative PATH entries are skipped, as a shell's cwd is not ours). */
export function executablesOnPath(name: string, env: Readonly<Record<string, string | undefined>>): string[] {
  return (env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => dir && isAbsolute(dir))
    .map((dir) => join(dir, name))
    .filter(isExecutableFile);
}
