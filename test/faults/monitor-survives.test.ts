import { afterEach, describe, expect, it } from 'vitest';
import type { MonitorEvent } from '../../shared/model';
import { AgentMatcher } from '../../main/core/analysis/agent-matcher';
import { BUILTIN_SIGNATURES } from '../../main/core/analysis/signatures';
import { DEFAULT_SETTINGS } from '../../main/core/config/defaults';
import { Monitor, type MonitorOptions } from '../../main/core/monitor/monitor';
import { LinuxSampler } from '../../main/core/sampling/linux/linux-sampler';
import type { ProcessRecord } from '../../main/core/model/process-record';
import type { ProcessSampler } from '../../main/core/sampling/process-sampler';
import { FakeAgent } from '../support/fake-agent';
import { waitFor } from '../support/wait-for';

let monitor: Monitor | null = null;
afterEach(() => {
  monitor?.stop();
  monitor = null;
});

interface Started {
  monitor: Monitor;
  events: MonitorEvent[];
  steps: string[];
}

function startMonitor(extra: Partial<MonitorOptions> = {}, sampler?: ProcessSampler): Started {
  const matcher = new AgentMatcher(BUILTIN_SIGNATURES);
  const events: MonitorEvent[] = [];
  const steps: string[] = [];
  monitor = new Monitor({
    sampler: sampler ?? new LinuxSampler({ markerKeys: matcher.markerKeys }),
    matcher,
    settings: { ...DEFAULT_SETTINGS, pollIntervalMs: 100 },
    watchIntervalMs: 50,
    onError: (step) => steps.push(step),
    ...extra,
  });
  monitor.onEvent((e) => events.push(e));
  monitor.start();
  return { monitor, events, steps };
}

/** A sampler whose chosen calls throw, as a /proc read can (EMFILE, ENOMEM). */
class FailingSampler implements ProcessSampler {
  readonly platform = 'linux' as const;
  private calls = 0;
  private readonly inner: LinuxSampler;

  constructor(
    markerKeys: ReadonlySet<string>,
    private readonly failOn: (call: number) => boolean,
  ) {
    this.inner = new LinuxSampler({ markerKeys });
  }

  private maybeFail(): void {
    if (this.failOn(++this.calls))
      throw new Error(`EMFILE: too many open files (injected, call ${this.calls})`);
  }

  sampleAll(): ProcessRecord[] {
    this.maybeFail();
    return this.inner.sampleAll();
  }

  sampleSome(pids: Iterable<number>): ProcessRecord[] {
    this.maybeFail();
    return this.inner.sampleSome(pids);
  }

  listPids(): number[] {
    this.maybeFail();
    return this.inner.listPids();
  }

  childrenOf(pid: number): number[] | null {
    return this.inner.childrenOf(pid);
  }
}

describe('the monitor loop survives an exception in any one step', () => {
  it('a throwing held-pipe lookup and a throwing event listener are counted, and polling goes on', async () => {
    const started = startMonitor({
      findHeldPipes: () => {
        throw new Error('held-pipe lookup exploded (injected)');
      },
    });
    started.monitor.onEvent(() => {
      throw new Error('listener exploded (injected)');
    });
    const agent = await FakeAgent.start();
    const first = await agent.toolCall('sleep 30 & echo done');
    await first.exited();
    // The wrapper exited, so the held-pipe check runs on the next polls, and throws each time.
    await waitFor('held-pipe failures', () => started.steps.filter((s) => s === 'held pipes').length >= 3);
    expect(started.steps).toContain('event listener');
    const errorsBefore = started.monitor.errors.count;

    const second = await agent.toolCall('sleep 30 & echo again');
    await second.exited();
    const orphaned = await waitFor('the second call orphaned', () =>
      started.events.find((e) => e.type === 'orphaned' && e.pgid === second.pid),
    );
    expect(orphaned.agent?.name).toBe('claude-code');
    expect(started.events.some((e) => e.type === 'orphaned' && e.pgid === first.pid)).toBe(true);
    expect(started.monitor.errors.count).toBeGreaterThan(errorsBefore);
    expect(started.monitor.errors.count).toBe(started.steps.length);
    expect(started.monitor.errors.last).toMatch(/exploded/);
  });

  it('a sampler that throws in the middle of a run costs one poll, not the loop', async () => {
    const markerKeys = new AgentMatcher(BUILTIN_SIGNATURES).markerKeys;
    const failing = new Set([3, 4, 5, 9]);
    const started = startMonitor({}, new FailingSampler(markerKeys, (call) => failing.has(call)));
    await waitFor('the injected failures', () => started.monitor.errors.count >= failing.size);
    const agent = await FakeAgent.start();
    const call = await agent.toolCall('sleep 30 & echo done');
    await call.exited();
    await waitFor('the tool call orphaned', () =>
      started.events.some((e) => e.type === 'orphaned' && e.pgid === call.pid),
    );
    expect(started.monitor.errors.count).toBe(failing.size);
    expect(started.steps.every((s) => s === 'poll')).toBe(true);
  });

  it('a sampler that throws on the very first sample does not stop the monitor from starting', async () => {
    const markerKeys = new AgentMatcher(BUILTIN_SIGNATURES).markerKeys;
    let started: Started | null = null;
    expect(() => {
      started = startMonitor({}, new FailingSampler(markerKeys, (call) => call === 1));
    }).not.toThrow();
    const agent = await FakeAgent.start();
    const call = await agent.toolCall('sleep 30 & echo done');
    await call.exited();
    await waitFor('the tool call orphaned', () =>
      started!.events.some((e) => e.type === 'orphaned' && e.pgid === call.pid),
    );
    expect(started!.monitor.errors.count).toBe(1);
  });
});
