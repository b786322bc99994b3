import { readlinkSync } from 'node:fs';

/**
 * Each pid's working directory from `/proc/<pid>/cwd`; null when it cannot be read (gone, another
 * user's process without CAP_SYS_PTRACE). A directory removed since shows the kernel's ` (deleted)`.
 */
export function readCwds(pids: Iterable<number>, procRoot = '/proc'): Map<number, string | null> {
  const out = new Map<number, string | null>();
  for (const pid of pids) {
    try {
      out.set(pid, readlinkSync(`${procRoot}/${pid}/cwd`));
    } catch {
      out.set(pid, null);
    }
  }
  return out;
}
