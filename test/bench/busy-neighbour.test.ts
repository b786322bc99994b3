import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { describe, expect, it } from 'vitest';
import { startBusyNeighbour } from '../../bench/lib/busy-neighbour';
import { waitUntil } from '../../bench/lib/wait';
import { isAlive, readProcStat } from '../support/proc';

/** How long a process has run on a CPU, in ns (the first field of /proc/<pid>/schedstat); 0 once gone. */
function ranNs(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'latin1').split(' ')[0]);
  } catch {
    return 0;
  }
}

describe('the busy neighbour beside the monitor', () => {
  it('keeps one loop per core spinning, each leading a group of its own, and stop() ends exactly those groups', async () => {
    const neighbour = startBusyNeighbour();
    try {
      expect(neighbour.pids).toHaveLength(cpus().length);
      for (const pid of neighbour.pids) {
        expect(pid).not.toBe(process.pid);
        expect(readProcStat(pid)?.pgid).toBe(pid);
      }
      // Each loop runs: a process that slept would not reach 50 ms on a CPU.
      await waitUntil(
        'every loop to have run for 50 ms',
        () => neighbour.pids.every((pid) => ranNs(pid) >= 50e6),
        10_000,
      );
    } finally {
      neighbour.stop();
    }
    await waitUntil('the loops to be gone', () => !neighbour.pids.some(isAlive), 10_000);
    expect(neighbour.pids.some(isAlive)).toBe(false);
  });
});
