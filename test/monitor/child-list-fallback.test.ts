import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { MonitorEvent } from '../../shared/model';
import { DEFAULT_SETTINGS } from '../../main/core/config/defaults';
import { Monitor } from '../../main/core/monitor/monitor';
import type { ProcessSampler } from '../../main/core/sampling/process-sampler';
import { LinuxSampler } from '../../main/core/sampling/linux/linux-sampler';
import { matcherFor } from '../../main/core/analysis/signatures';
import { FakeAgent } from '../support/fake-agent';
import { readProcStat } from '../support/proc';
import { waitFor } from '../support/wait-for';

let monitor: Monitor | null = null;
let real: LinuxSampler | null = null;
afterEach(() => {
  monitor?.stop();
  real?.close();
  monitor = null;
  real = null;
});

/**
 * The real Linux sampler without its pidfd exit watch, as on a kernel before 5.3 or where pidfds are
 * refused: the monitor must fall back to reading /proc/<pid>/task/<pid>/children of agents' processes.
 */
function withoutPidfds(sampler: LinuxSampler): { sampler: ProcessSampler; childListReads: () => number } {
  let reads = 0;
  return {
    sampler: {
      platform: sampler.platform,
      sampleAll: () => sampler.sampleAll(),
      sampleSome: (pids) => sampler.sampleSome(pids),
      listPids: () => sampler.listPids(),
      newPidsSince: (cursor) => sampler.newPidsSince(cursor),
      childrenOf: (pid) => {
        reads++;
        return sampler.childrenOf(pid);
      },
      close: () => sampler.close(),
    },
    childListReads: () => reads,
  };
}

describe('the watch without pidfds: child lists from /proc', () => {
  it("sees an agent's tool-call child orphaned between polls, from its parent's child list", async () => {
    const settings = { ...DEFAULT_SETTINGS, pollIntervalMs: 600_000 };
    const matcher = matcherFor(settings);
    real = new LinuxSampler({ markerKeys: matcher.markerKeys });
    const { sampler, childListReads } = withoutPidfds(real);
    const agent = await FakeAgent.start();
    monitor = new Monitor({ sampler, matcher, settings, watchIntervalMs: 50 });
    const events: MonitorEvent[] = [];
    monitor.onEvent((e) => events.push(e));
    // One poll now; the next is ten minutes away: only the watch can see what follows.
    monitor.start();
    expect(sampler.watchExits).toBeUndefined();

    const call = await agent.toolCall(`bash -c 'exec -a corral-child-list-orphan sleep 600' & echo done`);
    await call.exited();
    const orphaned = await waitFor(
      'the orphaned event',
      () => events.find((e) => e.type === 'orphaned' && e.pgid === call.pid),
      { timeoutMs: 20_000 },
    );
    // The same process (seen before or after its exec).
    await waitFor('the orphan to be the sleep', () =>
      readFileSync(`/proc/${orphaned.pid}/cmdline`, 'latin1').startsWith('corral-child-list-orphan\0'),
    );
    expect(orphaned.agent?.name).toBe('claude-code');
    expect(readProcStat(orphaned.pid)?.ppid).toBe(1);
    expect(childListReads()).toBeGreaterThan(0);
  });
});
