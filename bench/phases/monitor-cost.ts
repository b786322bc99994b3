import { PerformanceObserver, constants, type PerformanceEntry } from 'node:perf_hooks';
import type { CallCost } from '../lib/timed-sampler';
import type { MonitorHarness, Tick } from '../lib/monitor-harness';
import { summarize, type Summary } from '../lib/stats';
import { DEFAULT_SETTINGS } from '../../main/core/config/defaults';
import { DEFAULT_FULL_SWEEP_EVERY } from '../../main/core/monitor/monitor';
import { startBusyNeighbour } from '../lib/busy-neighbour';
import { sleep, waitUntil } from '../lib/wait';

export interface MonitorCostPlan {
  /** Length of the uninstrumented run, cut into windows. */
  seconds: number;
  windowSeconds: number;
  breakdownSeconds: number;
  /** Full sweeps to time for their amortized share. */
  sweeps: number;
  /** Length of the run with a busy neighbour (every core spinning), cut into windows of the same length. */
  busySeconds: number;
}

/** Process CPU over whole windows while the monitor only watches. */
export interface WindowedCost {
  /** CPU % of one core in each window. */
  percentPerWindow: number[];
  /** CPU % of one core, the mean of the windows no full sweep fell in (all windows' when every one had one). */
  meanPercent: number;
  /** Windows a full sweep fell in, left out of meanPercent: the sweeps are added at their amortized share. */
  windowsWithSweep: number;
  /** V8's full (mark-compact) GCs during the windows: each costs tens of ms, so a window with one stands out. */
  majorGcsInWindows: number;
}

export interface TickCost {
  calls: number;
  cpuMsPerTick: Summary;
  wallMsPerTick: Summary;
  /** Share of one core this kind of tick costs over the window, %. */
  percentOfCore: number;
}

export interface MonitorCost extends WindowedCost {
  windowSeconds: number;
  /**
   * Full-table sweeps, one every DEFAULT_FULL_SWEEP_EVERY polls, seldom fall in a window: timed apart,
   * and their share of a core at the default pace added to the windows' figure.
   */
  fullSweep: { calls: number; cpuMsPerSweep: Summary; amortizedPercent: number };
  /** The windows' mean plus the full sweeps' amortized share: the figure the target is checked against. */
  steadyStatePercent: number;
  /** The same windows while every core runs a busy loop of another program's (bench/lib/busy-neighbour.ts). */
  busyNeighbour: WindowedCost & { loops: number; steadyStatePercent: number };
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

/** This process's CPU (all threads) since the call, as % of one core, each time the returned function is called. */
export function cpuPercentSince(): () => number {
  const c0 = process.cpuUsage();
  const w0 = performance.now();
  return () => {
    const c = process.cpuUsage(c0);
    return ((c.user + c.system) / 1000 / (performance.now() - w0)) * 100;
  };
}

/**
 * The monitor's steady-state cost, measured in the process it runs in (bench/monitor-child.ts): process
 * CPU over whole windows while it only watches, then one instrumented window that says which of
 * poll/watch it went to, then a few full sweeps timed for their amortized share.
 */
export async function measureMonitorCost(
  harness: MonitorHarness,
  plan: MonitorCostPlan,
): Promise<MonitorCost> {
  const { seconds, windowSeconds, breakdownSeconds } = plan;
  const quiet = await measureWindows(harness, seconds, windowSeconds);
  const neighbour = startBusyNeighbour();
  let busy: WindowedCost;
  try {
    // Let the scheduler settle the loops on the cores before the first window.
    await sleep(2_000);
    busy = await measureWindows(harness, plan.busySeconds, windowSeconds);
  } finally {
    neighbour.stop();
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
  const heldPipes = { ...harness.heldPipes, percentOfCore: pct(harness.heldPipes.cpuMs) };

  const fullSweep = await timeFullSweeps(harness, plan.sweeps);
  return {
    ...quiet,
    windowSeconds,
    fullSweep,
    steadyStatePercent: quiet.meanPercent + fullSweep.amortizedPercent,
    busyNeighbour: {
      ...busy,
      loops: neighbour.pids.length,
      steadyStatePercent: busy.meanPercent + fullSweep.amortizedPercent,
    },
    breakdown: {
      seconds: wallMs / 1000,
      totalPercent: pct(total),
      ticks,
      sampler,
      heldPipes,
      outsideTicksPercent: pct(total - inTicks),
    },
  };
}

/**
 * Process CPU over whole windows. A window a full sweep fell in carries that sweep, which the caller adds
 * at its amortized share: left out of the mean, or it would be counted twice (and one 57 ms sweep is
 * 0.57 % of a 10 s window).
 */
async function measureWindows(
  harness: MonitorHarness,
  seconds: number,
  windowSeconds: number,
): Promise<WindowedCost> {
  const percentPerWindow: number[] = [];
  const withoutSweep: number[] = [];
  const majorGcs = countMajorGcs();
  const all = cpuPercentSince();
  for (let left = seconds; left > 0; left -= windowSeconds) {
    const sweepsBefore = harness.monitor.sweepCount;
    const done = cpuPercentSince();
    await sleep(windowSeconds * 1000);
    const percent = done();
    percentPerWindow.push(percent);
    if (harness.monitor.sweepCount === sweepsBefore) withoutSweep.push(percent);
  }
  const overall = all();
  return {
    percentPerWindow,
    meanPercent:
      withoutSweep.length > 0 ? withoutSweep.reduce((a, b) => a + b, 0) / withoutSweep.length : overall,
    windowsWithSweep: percentPerWindow.length - withoutSweep.length,
    majorGcsInWindows: majorGcs.stop(),
  };
}

/** Counts V8's major GCs from now until `stop()`, which returns the count. */
function countMajorGcs(): { stop(): number } {
  let count = 0;
  const add = (entries: PerformanceEntry[]): void => {
    for (const entry of entries)
      if ((entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR)
        count++;
  };
  const observer = new PerformanceObserver((list) => add(list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  return {
    stop() {
      // Entries still queued are handed over by takeRecords, not to a callback after disconnect.
      add(observer.takeRecords());
      observer.disconnect();
      return count;
    },
  };
}

/** A view of the whole table asks for a sweep every few polls: time `count` of them that way. */
async function timeFullSweeps(harness: MonitorHarness, count: number): Promise<MonitorCost['fullSweep']> {
  harness.resetTiming();
  harness.timing = true;
  harness.monitor.setWholeTableWanted(true);
  try {
    await waitUntil(
      `${count} full sweeps`,
      () => harness.ticks['poll-full'].calls >= count,
      (count + 2) * 6_000,
      100,
    );
  } finally {
    harness.monitor.setWholeTableWanted(false);
    harness.timing = false;
  }
  const cpuMsPerSweep = summarize(harness.ticks['poll-full'].cpuSamplesMs);
  const sweepEveryMs = DEFAULT_FULL_SWEEP_EVERY * DEFAULT_SETTINGS.pollIntervalMs;
  return {
    calls: harness.ticks['poll-full'].calls,
    cpuMsPerSweep,
    amortizedPercent: (cpuMsPerSweep.median / sweepEveryMs) * 100,
  };
}
