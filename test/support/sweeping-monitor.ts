import { DEFAULT_SETTINGS } from '../../main/core/config/defaults';
import { Monitor } from '../../main/core/monitor/monitor';
import { LinuxSampler } from '../../main/core/sampling/linux/linux-sampler';
import { matcherFor } from '../../main/core/analysis/signatures';

/** A setting no timer reaches during a test: ten minutes. The tests poll by hand. */
export const NEVER = 600_000;
export const handPolledSettings = { ...DEFAULT_SETTINGS, pollIntervalMs: NEVER };
export const handPolledMatcher = matcherFor(handPolledSettings);

/**
 * A monitor polled only by hand that sweeps the whole table at each poll, as it does often while a page
 * is open. The caller stops the monitor and closes the sampler.
 */
export function sweepingMonitor(): { monitor: Monitor; sampler: LinuxSampler } {
  const sampler = new LinuxSampler({ markerKeys: handPolledMatcher.markerKeys });
  const monitor = new Monitor({
    sampler,
    matcher: handPolledMatcher,
    settings: handPolledSettings,
    watchIntervalMs: NEVER,
    idleWatchIntervalMs: NEVER,
    fullSweepEvery: 1,
  });
  return { monitor, sampler };
}
