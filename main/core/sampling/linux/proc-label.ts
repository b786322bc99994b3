import { readFileSync } from 'node:fs';

/** A process's command line for messages (its comm when argv is empty or unreadable), or null once gone. */
export function procLabel(pid: number, procRoot = '/proc'): string | null {
  try {
    const argv = readFileSync(`${procRoot}/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    if (argv.length > 0) return argv.join(' ');
    return readFileSync(`${procRoot}/${pid}/comm`, 'utf8').trim() || null;
  } catch {
    return null;
  }
}
