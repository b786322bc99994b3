import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { keptFds } from '../../main/core/sampling/linux/kept-fds';
import { LinuxSampler } from '../../main/core/sampling/linux/linux-sampler';
import { spawnGroup } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';

const waitedMs = (pid: number): number =>
  Number(readFileSync(`/proc/${pid}/schedstat`, 'latin1').trim().split(' ')[1]) / 1e6;

describe("a record's run-queue wait (schedstat run_delay)", () => {
  it('is read even when the descriptors the schedstat probe may keep are spent', async () => {
    // One loop more than there are cores, so that each waits on a run queue.
    const loops = Array.from({ length: availableParallelism() + 1 }, () =>
      spawnGroup('exec bash -c "while :; do :; done"'),
    );
    const loop = loops[0]!.pid;
    await waitFor('the loop to have waited for a CPU', () => waitedMs(loop) > 0);
    const sampler = new LinuxSampler({ markerKeys: new Set() });
    // As with thousands of processes watched: only the descriptors the monitor needs may still be opened.
    const spent = keptFds.optionalBelow - keptFds.total;
    keptFds.total += spent;
    try {
      const before = waitedMs(loop);
      const record = sampler.readOne(loop);
      const after = waitedMs(loop);
      expect(record?.runQueueWaitMs).toBeGreaterThanOrEqual(before);
      expect(record?.runQueueWaitMs).toBeLessThanOrEqual(after);
    } finally {
      keptFds.total -= spent;
      sampler.close();
    }
  });
});
