import { readdirSync, readlinkSync } from 'node:fs';

/**
 * Calls `visit` with each open descriptor of `pid`: its name under `fd/` and what it links to
 * (`socket:[123]`, `pipe:[45]`, a path). False when the process's `fd/` cannot be read (it is gone, or
 * not ours to read); a descriptor closed meanwhile is skipped.
 */
export function forEachFdLink(
  pid: number | string,
  procRoot: string,
  visit: (fd: string, link: string) => void,
): boolean {
  let names: string[];
  try {
    names = readdirSync(`${procRoot}/${pid}/fd`);
  } catch {
    return false;
  }
  for (const name of names) {
    let link: string;
    try {
      link = readlinkSync(`${procRoot}/${pid}/fd/${name}`);
    } catch {
      continue;
    }
    visit(name, link);
  }
  return true;
}
