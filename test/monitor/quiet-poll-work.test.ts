import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS } from '../../main/core/config/defaults';
import { IncidentTracker } from '../../main/core/monitor/incidents/incident-tracker';
import { MemoryCheck } from '../../main/core/monitor/checks/memory-check';
import { Monitor } from '../../main/core/monitor/monitor';
import { LinuxSampler } from '../../main/core/sampling/linux/linux-sampler';
import { matcherFor } from '../../main/core/analysis/signatures';
import { FakeAgent } from '../support/fake-agent';
import { tempDirsRemovedAfterEach } from '../support/temp-dirs';
import { waitFor } from '../support/wait-for';

const tempDir = tempDirsRemovedAfterEach();
const cleanup: (() => void)[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const c of cleanup.splice(0)) c();
});

/**
 * A monitor over the real table, polled by hand on a clock that moves 1 s a poll. Births elsewhere in the
 * namespace (other test files) are hidden from it after its first look, so that its polls can be quiet.
 */
function quietMonitor() {
  const matcher = matcherFor(DEFAULT_SETTINGS);
  const sampler = new LinuxSampler({ markerKeys: matcher.markerKeys });
  cleanup.push(() => sampler.close());
  const newPidsSince = sampler.newPidsSince.bind(sampler);
  let hideBirths = false;
  sampler.newPidsSince = (cursor) => {
    const fresh = newPidsSince(cursor);
    return cursor === null || !hideBirths ? fresh : { cursor: fresh.cursor, pids: [] };
  };
  let clock = Date.now();
  const monitor = new Monitor({ sampler, matcher, settings: DEFAULT_SETTINGS, now: () => clock });
  const poll = (): void => {
    clock += 1000;
    monitor.poll();
  };
  return { monitor, poll, hideBirths: () => (hideBirths = true) };
}

describe('a poll that finds nothing changed', () => {
  it('leaves the incidents and the memory check alone, and brings them up to date at the next change', async () => {
    const { monitor, poll, hideBirths } = quietMonitor();
    const events: string[] = [];
    monitor.onEvent((e) => events.push(e.type));
    poll();
    const agent = await FakeAgent.start();
    const dir = tempDir('corral-quiet-poll-');
    const call = await agent.toolCall(`sleep 600 >/dev/null 2>&1 & echo $! > ${dir}/orphan`);
    await call.exited();
    const orphan = Number(
      await waitFor('the orphan', () => readFileSync(join(dir, 'orphan'), 'utf8').trim() || undefined),
    );
    await waitFor('the orphan incident', () => {
      poll();
      return monitor.openIncidents().find((i) => i.pgid === call.pid);
    });
    hideBirths();

    const updates = vi.spyOn(IncidentTracker.prototype, 'update');
    const memoryRuns = vi.spyOn(MemoryCheck.prototype, 'run');
    let quietPolls = 0;
    for (let i = 0; i < 30; i++) {
      const version = monitor.viewVersion;
      const updatesBefore = updates.mock.calls.length;
      const memoryBefore = memoryRuns.mock.calls.length;
      poll();
      // The version moves with every reading, member, event or setting that changed: a poll that left it
      // where the last one did found nothing for the incidents or the memory check to follow.
      if (monitor.viewVersion !== version) continue;
      quietPolls++;
      expect(updates.mock.calls.length).toBe(updatesBefore);
      expect(memoryRuns.mock.calls.length).toBe(memoryBefore);
    }
    // The agent and its leftovers sit idle: most polls are quiet.
    expect(quietPolls).toBeGreaterThan(10);

    process.kill(orphan, 'SIGKILL');
    const closed = await waitFor('the incident closed', () => {
      poll();
      return !monitor.openIncidents().some((i) => i.pgid === call.pid) || undefined;
    });
    expect(closed).toBe(true);
    expect(updates).toHaveBeenCalled();
    expect(events).toContain('incident-closed');
  });
});
