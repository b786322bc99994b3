// Run by bench/phases/monitor-cost.ts, bundled to plain JavaScript (bench/lib/plain-node.ts) and started
// with `node`: a Monitor wired as the app wires it watches the table the bench populated, and this
// process's CPU is the monitor's. Prints the MonitorCost as one JSON line.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { startMonitor } from './lib/monitor-harness';
import { cpuPercentSince, measureMonitorCost, type MonitorCostPlan } from './phases/monitor-cost';
import type { MonitorWarmup } from './phases/monitor-cost-process';
import { sleep } from './lib/wait';

async function main(): Promise<void> {
  const plan = JSON.parse(process.argv[2] ?? '{}') as MonitorCostPlan & MonitorWarmup;
  const harness = startMonitor();
  try {
    await sleep(plan.earlyFromSeconds * 1000);
    const early = cpuPercentSince();
    await sleep((plan.warmupSeconds - plan.earlyFromSeconds) * 1000);
    const earlyPercent = early();
    const profile = await startProfile(process.env.CORRAL_BENCH_CPU_PROFILE);
    const cost = await measureMonitorCost(harness, plan);
    await profile?.stop();
    const warmup = {
      fromSeconds: plan.earlyFromSeconds,
      toSeconds: plan.warmupSeconds,
      percent: earlyPercent,
    };
    process.stdout.write(`${JSON.stringify({ cost, warmup, errors: harness.monitor.errors })}\n`);
  } finally {
    harness.stop();
  }
}

/**
 * With CORRAL_BENCH_CPU_PROFILE set to a file, a CPU profile of the measured part (after the warm-up) is
 * written there, for bench/profile-top.ts. The profiler's own sampling adds to the CPU measured, so the
 * rows of such a run are not the monitor's.
 */
async function startProfile(path: string | undefined): Promise<{ stop(): Promise<void> } | null> {
  if (!path) return null;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    async stop() {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(path, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

main().catch((err: unknown) => {
  process.stderr.write(
    `monitor child failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exitCode = 1;
});
