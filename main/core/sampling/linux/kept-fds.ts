import { readFileSync } from 'node:fs';

/**
 * Descriptors kept open across reads (stat and children files, pidfds), counted across every sampler
 * in this process: at most a quarter of the open-files limit (and 8,192), so the rest of the program
 * never runs out. Beyond the budget, files are opened per read and exits are left to the next poll.
 */
const budget = Math.min(8192, Math.floor(openFilesLimit() / 4));

/**
 * `optionalBelow`: descriptors that only save work (the schedstat probe's) are opened only while fewer
 * than this are kept, so that stat files and the exit watch's pidfds, which the monitor needs to see
 * exits at once, always find room.
 */
export const keptFds = { total: 0, budget, optionalBelow: Math.floor((budget * 3) / 4) };

function openFilesLimit(): number {
  try {
    const line = readFileSync('/proc/self/limits', 'latin1')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = Number(line?.split(/\s+/)[3]);
    return Number.isSafeInteger(soft) && soft > 0 ? soft : 1024;
  } catch {
    return 1024;
  }
}
