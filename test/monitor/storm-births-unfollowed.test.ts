import { afterEach, describe, expect, it } from 'vitest';
import type { MonitorEvent } from '../../shared/model';
import { DEFAULT_SETTINGS } from '../../main/core/config/defaults';
import { DEFAULT_SPAWN_STORM } from '../../shared/settings-table';
import { Monitor } from '../../main/core/monitor/monitor';
import { STORM_WATCH_MS } from '../../main/core/monitor/schedule/watch-pace';
import { LinuxSampler } from '../../main/core/sampling/linux/linux-sampler';
import { matcherFor } from '../../main/core/analysis/signatures';
import { FakeAgent } from '../support/fake-agent';
import { waitFor } from '../support/wait-for';

let stop: (() => void) | null = null;
afterEach(() => {
  stop?.();
  stop = null;
});

// A fork loop's children come and go a thousand a second. Following each one's exit (a pidfd opened, the
// waiting thread woken to take the new set) cost `watch` more than reading them; its summary counts them.
describe('a storming group', { timeout: 120_000 }, () => {
  it('is looked at every 500 ms, and its births are not followed for exit while its loop is', async () => {
    const settings = { ...DEFAULT_SETTINGS, spawnStorm: { ...DEFAULT_SPAWN_STORM, windowSeconds: 2 } };
    const matcher = matcherFor(settings);
    const sampler = new LinuxSampler({ markerKeys: matcher.markerKeys });
    const monitor = new Monitor({ sampler, matcher, settings });
    const followed: Array<ReadonlySet<number>> = [];
    let storming = false;
    /** Storm births alive at a follow: each one followed is one too many. */
    let liveBirths = 0;
    let followedBirths = 0;
    const watchExits = sampler.watchExits.bind(sampler);
    sampler.watchExits = (targets) => {
      if (storming) {
        followed.push(new Set(targets.keys()));
        for (const p of monitor.trackedProcesses()) {
          const r = p.record;
          if (!p.summarized || p.exitedAt !== null || r.pid === r.pgid || r.pid === r.sid) continue;
          liveBirths++;
          if (targets.has(r.pid)) followedBirths++;
        }
      }
      return watchExits(targets);
    };
    const events: MonitorEvent[] = [];
    monitor.onEvent((e) => events.push(e));
    monitor.start();
    stop = () => {
      monitor.stop();
      sampler.close();
    };
    const agent = await FakeAgent.start();
    const call = await agent.toolCall('while :; do /bin/true; done');
    await waitFor('the spawn-storm event', () => events.find((e) => e.type === 'spawn-storm'), {
      timeoutMs: 60_000,
    });
    storming = true;
    expect(monitor.watchPaceMs).toBe(STORM_WATCH_MS);
    await waitFor('three of its births read alive at a follow', () => liveBirths >= 3, { timeoutMs: 60_000 });
    expect(followedBirths).toBe(0);
    // The loop itself, whose exit would orphan what it left, stays followed.
    expect(followed.at(-1)?.has(call.pid)).toBe(true);
  });
});
