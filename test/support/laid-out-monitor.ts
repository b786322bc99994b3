import { DEFAULT_SETTINGS } from '../../main/core/config/defaults';
import { Monitor } from '../../main/core/monitor/monitor';
import { LinuxSampler } from '../../main/core/sampling/linux/linux-sampler';
import { matcherFor } from '../../main/core/analysis/signatures';
import type { LaidOutProc } from './laid-out-proc';

/** Longer than any test: the monitor looks only when the test calls poll() or watch(). */
export const NEVER = 600_000;
export const laidOutSettings = { ...DEFAULT_SETTINGS, pollIntervalMs: NEVER };
export const laidOutMatcher = matcherFor(laidOutSettings);

/**
 * A monitor over a /proc laid out in files, looking only when told to, on a clock a second further on
 * at each look (CPU percentages need time between two readings). `onCleanup` is given what stops it.
 */
export function monitorOnLaidOutProc(
  proc: LaidOutProc,
  onCleanup: (stop: () => void) => void,
  { fullSweepEvery }: { fullSweepEvery?: number } = {},
): Monitor {
  let clock = 1_000_000;
  const sampler = new LinuxSampler({ markerKeys: laidOutMatcher.markerKeys }, proc.root);
  const monitor = new Monitor({
    sampler,
    matcher: laidOutMatcher,
    settings: laidOutSettings,
    watchIntervalMs: NEVER,
    idleWatchIntervalMs: NEVER,
    ...(fullSweepEvery === undefined ? {} : { fullSweepEvery }),
    now: () => (clock += 1000),
  });
  onCleanup(() => {
    monitor.stop();
    sampler.close();
  });
  return monitor;
}
