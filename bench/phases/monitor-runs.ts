// The monitor's runs in the full bench and in `--only monitor`: its steady cost, and orphan detection.
import { PLAN } from '../plan';
import { removeGroups } from '../lib/populations';
import { measureDetectionLatency, type DetectionMonitor, type LatencyResult } from './detection-latency';
import { measureMonitorCostInOwnProcess } from './monitor-cost-process';
import { measureRunawayFlag, type RunawayLatency } from './runaway-latency';

/** The monitor's steady cost over the table as it is, in a Node process of its own. */
export function monitorCostRun(
  log: (msg: string) => void,
): ReturnType<typeof measureMonitorCostInOwnProcess> {
  log(
    `monitor cost: its own Node process, ${PLAN.monitorWarmupSeconds} s warm-up, ${PLAN.monitorSeconds} s of watching, ${PLAN.monitorBusySeconds} s beside a busy neighbour, ${PLAN.breakdownSeconds} s instrumented, ${PLAN.sweeps} full sweeps`,
  );
  return measureMonitorCostInOwnProcess({
    seconds: PLAN.monitorSeconds,
    busySeconds: PLAN.monitorBusySeconds,
    windowSeconds: PLAN.windowSeconds,
    breakdownSeconds: PLAN.breakdownSeconds,
    warmupSeconds: PLAN.monitorWarmupSeconds,
    earlyFromSeconds: PLAN.monitorEarlyFromSeconds,
    sweeps: PLAN.sweeps,
  });
}

/**
 * Orphan-detection latency, the monitor in a process of its own as `watch` and `serve` run it. First the
 * wrapper that exits at once as the first tool call after a quiet spell (no watch between polls then: the
 * next poll finds it), then both variants side by side, each its own sequence of trials within a second
 * of each other (orphans are told apart by pid); their groups are removed afterwards.
 */
export async function detectionLatency(
  log: (msg: string) => void,
  monitor: DetectionMonitor,
  agent: Parameters<typeof measureDetectionLatency>[1],
  dir: string,
): Promise<LatencyResult[]> {
  const quiet = {
    name: 'wrapper exits at once, first tool call after 6 s quiet',
    wrapperLivesSeconds: 0,
    quietSeconds: 6,
  };
  log(
    `detection latency: ${PLAN.quietTrials} trials after ${quiet.quietSeconds} s quiet, then ${PLAN.trials} trials of each variant`,
  );
  const afterQuiet = await measureDetectionLatency(monitor, agent, dir, quiet, PLAN.quietTrials);
  const variants = [
    { name: 'wrapper exits at once', wrapperLivesSeconds: 0 },
    { name: 'wrapper lives 0.5 s', wrapperLivesSeconds: 0.5 },
  ];
  const latency = await Promise.all(
    variants.map((v) => measureDetectionLatency(monitor, agent, dir, v, PLAN.trials)),
  );
  latency.push(afterQuiet);
  await removeGroups(latency.flatMap((l) => l.groups));
  return latency;
}

/**
 * Issue 46: how long the seed's loop takes to be flagged runaway beside one, then two, busy neighbours per
 * core, by the same monitor as the detection trials; the loops' groups are removed afterwards.
 */
export async function runawayUnderContention(
  log: (msg: string) => void,
  monitor: DetectionMonitor,
  agent: Parameters<typeof measureDetectionLatency>[1],
  dir: string,
): Promise<RunawayLatency[]> {
  log(`runaway under contention: ${PLAN.runawayTrials} trials beside 1, then 2, busy neighbours per core`);
  const results: RunawayLatency[] = [];
  for (const perCore of [1, 2])
    results.push(await measureRunawayFlag(monitor, agent, dir, perCore, PLAN.runawayTrials));
  await removeGroups(results.flatMap((r) => r.groups));
  return results;
}
