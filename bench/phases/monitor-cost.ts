import type { CallCost } from '../lib/timed-sampler';
import type { MonitorHarness, Tick } from '../lib/monitor-harness';
import { summarize, type Summary } from '../lib/stats';
import { sleep } from '../lib/wait';

export interface TickCost {
  calls: number;
  cpuMsPerTick: Summary;
  wallMsPerTick: Summary;
  /** Share of one core this kind of tick costs over the window, %. */
  percentOfCore: number;
}

export interface MonitorCost {
  /** CPU % of one core in each window of the uninstrumented run. */
  percentPerWindow: number[];
  windowSeconds: number;
  breakdown: {
    seconds: number;
    /** CPU % of one core over the instrumented window (timing itself costs a little). */
    totalPercent: number;
    ticks: Record<Tick, TickCost>;
    /** Inside the ticks: the sampler's calls and the held-pipe lookup, as % of one core. */
    sampler: Record<string, CallCost & { percentOfCore: number }>;
    heldPipes: CallCost & { percentOfCore: number };
    /** Process CPU outside poll/watch (timers, GC, the incident store's writes land inside poll). */
    outsideTicksPercent: number;
  };
}

function cpuPercentSince(): () => number {
  const c0 = process.cpuUsage();
  const w0 = performance.now();
  return () => {
    const c = process.cpuUsage(c0);
    return ((c.user + c.system) / 1000 / (performance.now() - w0)) * 100;
  };
}

/**
 * The monitor's steady-state cost: process CPU over whole windows while it only watches (the bench does
 * nothing else meanwhile), then one instrumented window that says which of poll/watch/full sweep it went to.
 */
export async function measureMonitorCost(
  harness: MonitorHarness,
  {
    seconds,
    windowSeconds,
    breakdownSeconds,
  }: { seconds: number; windowSeconds: number; breakdownSeconds: number },
): Promise<MonitorCost> {
  const percentPerWindow: number[] = [];
  for (let left = seconds; left > 0; left -= windowSeconds) {
    const done = cpuPercentSince();
    await sleep(windowSeconds * 1000);
    percentPerWindow.push(done());
  }

  harness.resetTiming();
  harness.timing = true;
  harness.sampler.enabled = true;
  const c0 = process.cpuUsage();
  const w0 = performance.now();
  await sleep(breakdownSeconds * 1000);
  const c = process.cpuUsage(c0);
  const wallMs = performance.now() - w0;
  harness.timing = false;
  harness.sampler.enabled = false;

  const pct = (cpuMs: number): number => (cpuMs / wallMs) * 100;
  const ticks = {} as Record<Tick, TickCost>;
  let inTicks = 0;
  for (const [kind, t] of Object.entries(harness.ticks) as Array<[Tick, MonitorHarness['ticks'][Tick]]>) {
    inTicks += t.cpuMs;
    ticks[kind] = {
      calls: t.calls,
      cpuMsPerTick: summarize(t.cpuSamplesMs),
      wallMsPerTick: summarize(t.wallSamplesMs),
      percentOfCore: pct(t.cpuMs),
    };
  }
  const sampler: MonitorCost['breakdown']['sampler'] = {};
  for (const [step, cost] of Object.entries(harness.sampler.costs))
    sampler[step] = { ...cost, percentOfCore: pct(cost.cpuMs) };
  const total = (c.user + c.system) / 1000;
  return {
    percentPerWindow,
    windowSeconds,
    breakdown: {
      seconds: wallMs / 1000,
      totalPercent: pct(total),
      ticks,
      sampler,
      heldPipes: { ...harness.heldPipes, percentOfCore: pct(harness.heldPipes.cpuMs) },
      outsideTicksPercent: pct(total - inTicks),
    },
  };
}
