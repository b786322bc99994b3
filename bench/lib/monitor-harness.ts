import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findHeldPipes } from '../../main/core/sampling/linux/find-held-pipes';
import { heldPipeLinks } from '../../main/core/sampling/linux/held-pipe-links';
import { DEFAULT_SETTINGS } from '../../main/core/config/defaults';
import { DEFAULT_FULL_SWEEP_EVERY, Monitor } from '../../main/core/monitor/monitor';
import { createSampler } from '../../main/core/sampling/create-sampler';
import { matcherFor } from '../../main/core/analysis/signatures';
import { IncidentStore } from '../../main/core/storage/incident-store';
import { TimedSampler, type CallCost } from './timed-sampler';

export type Tick = 'poll-full' | 'poll-partial' | 'watch';

export interface MonitorHarness {
  monitor: Monitor;
  sampler: TimedSampler;
  /** Per-tick CPU and wall time, collected while `timing` is on. */
  ticks: Record<Tick, CallCost & { cpuSamplesMs: number[]; wallSamplesMs: number[] }>;
  heldPipes: CallCost;
  timing: boolean;
  resetTiming(): void;
  stop(): void;
}

const FULL_SWEEP_EVERY = DEFAULT_FULL_SWEEP_EVERY;

/**
 * The monitor wired as createCorralService wires it (default settings, held-pipe lookup, an incident
 * store in a temporary data directory), but with a sampler the bench can look inside.
 */
export function startMonitor(): MonitorHarness {
  const settings = DEFAULT_SETTINGS;
  const matcher = matcherFor(settings);
  const sampler = new TimedSampler(createSampler({ markerKeys: matcher.markerKeys }));
  const dataDir = mkdtempSync(join(tmpdir(), 'corral-bench-data-'));
  const store = IncidentStore.open(dataDir);
  const blank = (): CallCost & { cpuSamplesMs: number[]; wallSamplesMs: number[] } => ({
    calls: 0,
    cpuMs: 0,
    wallMs: 0,
    cpuSamplesMs: [],
    wallSamplesMs: [],
  });
  const harness: MonitorHarness = {
    monitor: null as unknown as Monitor,
    sampler,
    ticks: { 'poll-full': blank(), 'poll-partial': blank(), watch: blank() },
    heldPipes: { calls: 0, cpuMs: 0, wallMs: 0 },
    timing: false,
    resetTiming() {
      for (const t of Object.values(harness.ticks)) Object.assign(t, blank());
      Object.assign(harness.heldPipes, { calls: 0, cpuMs: 0, wallMs: 0 });
      sampler.reset();
    },
    stop() {
      monitor.stop();
      store.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  // The held-pipe lookup and its cheap recheck (the links of a pipe already found), timed together.
  const timed =
    <A, R>(run: (arg: A) => R) =>
    (arg: A): R => {
      if (!harness.timing) return run(arg);
      const c0 = process.cpuUsage();
      const w0 = performance.now();
      try {
        return run(arg);
      } finally {
        const c = process.cpuUsage(c0);
        harness.heldPipes.calls++;
        harness.heldPipes.cpuMs += (c.user + c.system) / 1000;
        harness.heldPipes.wallMs += performance.now() - w0;
      }
    };
  const timedHeldPipes: typeof findHeldPipes = timed((query) => findHeldPipes(query));
  const timedLinks: typeof heldPipeLinks = timed((pipe) => heldPipeLinks(pipe));
  const monitor = new Monitor({
    sampler,
    matcher,
    settings,
    findHeldPipes: process.env.NO_PIPES ? undefined : timedHeldPipes,
    heldPipeLinks: timedLinks,
    incidents: process.env.NO_STORE
      ? undefined
      : { restored: store.openIncidents(), sink: { save: (batch) => store.upsert(batch) } },
    fullSweepEvery: FULL_SWEEP_EVERY,
  });
  harness.monitor = monitor;

  // The monitor's timer calls this.poll()/this.watch(), so wrapping the instance's methods sees every tick.
  // A poll that read the whole table (sampleAll) is a full sweep.
  const wrap = (run: () => void, kind: () => Tick): (() => void) => {
    return () => {
      if (!harness.timing) return run();
      const sweepsBefore = sampler.sweeps;
      const c0 = process.cpuUsage();
      const w0 = performance.now();
      try {
        run();
      } finally {
        const c = process.cpuUsage(c0);
        const t = harness.ticks[sampler.sweeps > sweepsBefore ? 'poll-full' : kind()];
        const cpu = (c.user + c.system) / 1000;
        const wall = performance.now() - w0;
        t.calls++;
        t.cpuMs += cpu;
        t.wallMs += wall;
        t.cpuSamplesMs.push(cpu);
        t.wallSamplesMs.push(wall);
      }
    };
  };
  const poll = monitor.poll.bind(monitor);
  const watch = monitor.watch.bind(monitor);
  monitor.poll = wrap(poll, () => 'poll-partial');
  monitor.watch = wrap(watch, () => 'watch');
  monitor.start();
  return harness;
}
