// The performance benchmark (`npm run bench`, `npm run bench -- --quick`). It spawns its own process
// populations in process groups it removes by PGID, measures Corral against ps, ps-list,
// systeminformation and a C floor, and writes bench/results.json and bench/RESULTS.md.
// Run it in a PID namespace of its own, as the tests are: see bench/README.md.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_SETTINGS } from '../main/core/config/defaults';
import { matcherFor } from '../main/core/analysis/signatures';
import { compileFloor, runKillFloor } from './lib/c-floor';
import { machineInfo } from './lib/machine';
import {
  createdGroups,
  killAllCreatedSync,
  liveCount,
  procCount,
  removeGroups,
  spawnPopulation,
} from './lib/populations';
import { PhaseLoads } from './lib/phase-loads';
import { formatted, resultsMarkdown, withRowsReplaced, withShippedSection } from './lib/results-markdown';
import { textTable, verdict, type Row } from './lib/table';
import { sleep } from './lib/wait';
import { startAgentPopulation } from './phases/agent-population';
import { startDetectionMonitor, type LatencyResult } from './phases/detection-latency';
import { hookLatencyRows, measureHookLatency, type HookLatency } from './phases/hook-latency';
import { hookServiceRows, measureHookService, type HookServiceResult } from './phases/hook-service';
import { measureMemory } from './phases/memory';
import { measureScrapeCost, type ScrapeCost } from './phases/metrics-scrape';
import { detectionLatency, monitorCostRun, runawayUnderContention } from './phases/monitor-runs';
import { measureShippedMemoryAt } from './phases/shipped-memory';
import { shippedMemoryRows } from './report-shipped-memory';
import { stormRows } from './report-storm';
import { measureStormCost, stormCostPlan } from './phases/storm-cost';
import { measureProvenanceCost, provenanceRows } from './phases/provenance-cost';
import { measureShippedScenarios, type ShippedCost } from './phases/shipped-cost';
import {
  loadPsList,
  measureSnapshots,
  type MethodResult,
  type PsList,
  type SnapshotOptions,
} from './phases/snapshots';
import { timeTeardown, type TeardownRun } from './phases/teardown-time';
import { measureWorkerMainThread, type WorkerMainThread } from './phases/worker-main-thread';
import {
  latencyRows,
  runawayRows,
  memoryRows,
  monitorRows,
  scrapeRows,
  shippedRows,
  snapshotRows,
  teardownRows,
  workerMainThreadRows,
} from './report';
import {
  GRACE_MS,
  IGNORING_SIZE,
  PLAN,
  POPULATIONS,
  quick,
  SHIPPED_PLAN,
  TARGET_POPULATION,
  TEARDOWN_SIZE,
} from './plan';

/**
 * `--only shipped`: just the rows of what ships (serve, the desktop arrangement, a page), into their own section.
 * `--only monitor`: the 4,000-process snapshot, the monitor's cost and the orphan-detection latency, whose
 * rows replace theirs in RESULTS.md (the others are kept as they were).
 */
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : null;
const OUT_DIR = fileURLToPath(new URL('.', import.meta.url));

const phaseLoads = new PhaseLoads();
const log = (msg: string): void => {
  const seconds = (performance.now() - t0) / 1000;
  phaseLoads.note(seconds, msg);
  process.stderr.write(`[bench ${seconds.toFixed(1)} s] ${msg}\n`);
};
const t0 = performance.now();

/** Processes the bench created that are alive now; the populations are checked against it. */
const extraAlive = (): number => liveCount(createdGroups());

/** Snapshots of the table with `extra` processes alive (checked first), by every method. */
async function snapshotsAt(
  extra: number,
  tools: { floor: SnapshotOptions['floor']; markerKeys: ReadonlySet<string>; psList: PsList | string },
): Promise<{ tableSize: number; results: MethodResult[] }> {
  const alive = extraAlive();
  if (alive !== extra) throw new Error(`population should be ${extra} extra processes, found ${alive}`);
  const tableSize = procCount();
  log(`snapshots with ${extra} extra processes (${tableSize} in the table)`);
  // More snapshots per round where each is cheap, fewer where each costs a second (systeminformation).
  const perRound = Math.max(2, Math.round(PLAN.perRound * Math.min(2, Math.max(0.4, 1000 / extra))));
  const { floor, markerKeys, psList } = tools;
  return {
    tableSize,
    results: await measureSnapshots({ rounds: PLAN.rounds, perRound, floor, markerKeys }, psList),
  };
}

async function main(): Promise<void> {
  const machine = machineInfo();
  if (machine.pid1 !== 'tini')
    log(`warning: PID 1 is ${machine.pid1}; run inside a PID namespace as bench/README.md says`);
  const markerKeys = matcherFor(DEFAULT_SETTINGS).markerKeys;
  const floor = compileFloor();
  const psList = await loadPsList();
  const dir = mkdtempSync(join(tmpdir(), 'corral-bench-'));
  const rows: Row[] = [];
  const snapshots: Record<string, { tableSize: number; results: MethodResult[] }> = {};
  const hookService: Record<string, HookServiceResult> = {};

  try {
    // 1. Snapshots at each population size; the 4,000 one includes the agent the monitor phases use.
    let spawned = 0;
    let agentPopulation: Awaited<ReturnType<typeof startAgentPopulation>> | null = null;
    for (const extra of POPULATIONS) {
      if (extra === POPULATIONS[POPULATIONS.length - 1]) {
        agentPopulation = await startAgentPopulation(dir);
        spawned += agentPopulation.descendants + 1;
      }
      await spawnPopulation(extra - spawned);
      spawned = extra;
      const { tableSize, results } = await snapshotsAt(extra, { floor, markerKeys, psList });
      snapshots[extra] = { tableSize, results };
      rows.push(...snapshotRows(extra, tableSize, results, extra === TARGET_POPULATION));
      if (extra >= 1000) {
        log(`agent hook per tool call, with the service answering and without, ${extra} extra processes`);
        hookService[extra] = await measureHookService(quick ? 10 : 30);
        rows.push(...hookServiceRows(extra, hookService[extra]));
      }
    }
    log('agent hook: corral hook claude-code PostToolUse with the 4,000 extra processes');
    const hookLatency: HookLatency = await measureHookLatency(quick ? 10 : 30);
    rows.push(...hookLatencyRows(4000, hookLatency));
    // 1b. Provenance (cwd, ports, sessions) of the agent's processes over the same 4,000.
    log('provenance: cwd and listening ports of the agent processes, ports of every process, addTo');
    rows.push(...provenanceRows(4000, measureProvenanceCost(PLAN.rounds, PLAN.perRound)));

    // 2. Steady-state monitor cost over the 4,000, in a process of its own.
    const monitorRun = await monitorCostRun(log);
    const monitorCost = monitorRun.cost;
    rows.push(...monitorRows(4000, agentPopulation!.descendants + 1, monitorCost, monitorRun.warmup));

    // 2b. The same table through `corral metrics`, scraped every 15 s beside not at all.
    log(
      `corral metrics: ${PLAN.scrape.pairs} × 2 windows of ${PLAN.scrape.windowSeconds} s, a scrape every 15 s in one of each`,
    );
    const scrapeCost: ScrapeCost = await measureScrapeCost(PLAN.scrape, procCount);
    rows.push(...scrapeRows(4000, scrapeCost));

    // 3. Detection latency, with a monitor in a process of its own (latency, not CPU, is measured here).
    const detection = await startDetectionMonitor();
    let workerMainThread: WorkerMainThread | null = null;
    const latency: LatencyResult[] = [];
    let monitorErrors = monitorRun.errors;
    try {
      await sleep(PLAN.warmupSeconds * 1000);
      latency.push(...(await detectionLatency(log, detection, agentPopulation!.agent, dir)));
      rows.push(...latencyRows(latency));
      rows.push(...runawayRows(await runawayUnderContention(log, detection, agentPopulation!.agent, dir)));
    } finally {
      const errors = await detection.stop();
      monitorErrors = {
        count: monitorErrors.count + errors.count,
        last: errors.last ?? monitorErrors.last,
      };
      agentPopulation?.agent.close();
    }
    rows.push(...(await stormCostRun(4000)));
    // The desktop arrangement over the same table, with the bench's own monitor stopped so that this
    // thread's busy time is only what the worker's pushes cost it.
    log(`desktop arrangement: the core in a worker thread, ${PLAN.breakdownSeconds} s`);
    workerMainThread = await measureWorkerMainThread(PLAN.breakdownSeconds);
    rows.push(...workerMainThreadRows(4000, workerMainThread));
    await removeGroups();

    // 4. Teardown of whole groups, one at a time on an otherwise quiet table.
    log(
      `teardown: ${PLAN.teardownRuns} × ${TEARDOWN_SIZE} respecting TERM, ${PLAN.ignoringRuns} × ${IGNORING_SIZE} ignoring it`,
    );
    const respecting: TeardownRun[] = [];
    for (let i = 0; i < PLAN.teardownRuns; i++)
      respecting.push(
        await timeTeardown(TEARDOWN_SIZE, { ignoreTerm: false, graceMs: DEFAULT_SETTINGS.teardown.graceMs }),
      );
    const ignoring: TeardownRun[] = [];
    for (let i = 0; i < PLAN.ignoringRuns; i++)
      ignoring.push(await timeTeardown(IGNORING_SIZE, { ignoreTerm: true, graceMs: GRACE_MS }));
    // The same removal with nothing but kill(2) in C: what the kernel needs after the SIGKILL.
    const killFloor = compileFloor('killfloor');
    let killFloorMs: number[] | null = null;
    try {
      if ('path' in killFloor) killFloorMs = runKillFloor(killFloor.path, IGNORING_SIZE, PLAN.ignoringRuns);
    } finally {
      if ('path' in killFloor) rmSync(join(killFloor.path, '..'), { recursive: true, force: true });
    }
    rows.push(...teardownRows(TEARDOWN_SIZE, respecting, ignoring, IGNORING_SIZE, GRACE_MS, killFloorMs));

    // 5. Memory after an hour of simulated history, in a fresh process.
    log('memory: 1 h of 1 Hz samples for 1,000 processes, simulated');
    const memory = measureMemory(1, 1000);
    rows.push(...memoryRows(memory));
    // 5b. Resident memory of `watch` and `serve` over 1,000 extra processes (issue 35: at most 50 MB).
    log('memory: corral watch and corral serve over 1,000 extra processes, resident sets');
    rows.push(...shippedMemoryRows(1000, await measureShippedMemoryAt(1000, quick)));

    // 6. What ships, whole processes: serve with and without a page, the desktop arrangement.
    const shipped = await measureShippedScenarios(SHIPPED_PLAN, dir, log);

    const shippedTable = shippedRows(shipped);
    const table = textTable([...rows, ...shippedTable]);
    process.stdout.write(`\n${table}\n\n`);
    const failed = [...rows, ...shippedRows(shipped)].filter((r) => verdict(r) === 'FAIL').length;
    const date = new Date().toISOString();
    const results = {
      date,
      mode: quick ? 'quick' : 'full',
      machine,
      plan: PLAN,
      durationSeconds: (performance.now() - t0) / 1000,
      snapshots,
      monitorCost,
      monitorWarmup: monitorRun.warmup,
      scrapeCost,
      workerMainThread,
      monitorErrors,
      latency,
      teardown: {
        respecting,
        ignoring,
        graceMs: GRACE_MS,
        size: TEARDOWN_SIZE,
        ignoringSize: IGNORING_SIZE,
        killFloorMs,
      },
      memory,
      hookLatency,
      hookService,
      shipped,
      loads: phaseLoads.steps,
      rows: rows.map((r) => ({ ...r, verdict: verdict(r) })),
    };
    writeFileSync(join(OUT_DIR, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
    writeFileSync(
      join(OUT_DIR, 'RESULTS.md'),
      await formatted(
        withShippedSection(
          resultsMarkdown(rows, results.mode, date, machine, phaseLoads.markdownLine(cpus().length)),
          shippedTable,
          results.mode,
          date,
        ),
        join(OUT_DIR, 'RESULTS.md'),
      ),
    );
    log(
      `done: ${rows.length} rows, ${failed} target(s) missed; wrote bench/results.json and bench/RESULTS.md`,
    );
  } finally {
    await removeGroups().catch((err: unknown) => log(`cleanup: ${String(err)}`));
    rmSync(dir, { recursive: true, force: true });
    if ('path' in floor) rmSync(join(floor.path, '..'), { recursive: true, force: true });
  }
}

/** Issue 46: the shipped `watch` over the table as it is, quiet and then beside a fork storm, in one run. */
async function stormCostRun(extra: number): Promise<Row[]> {
  const plan = stormCostPlan(quick);
  log(
    `fork storm: corral watch --json, ${plan.warmupSeconds} s warm-up, quiet then storming ${plan.windowSeconds} s windows`,
  );
  return stormRows(extra, await measureStormCost(plan));
}

/** `--only shipped`: the shipped rows alone, into bench/results-shipped.json and RESULTS.md's section. */
async function mainShipped(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'corral-bench-'));
  try {
    const shipped: ShippedCost[] = await measureShippedScenarios(SHIPPED_PLAN, dir, log);
    const rows = shippedRows(shipped);
    process.stdout.write(`\n${textTable(rows)}\n\n`);
    const date = new Date().toISOString();
    const mode = quick ? 'quick' : 'full';
    writeFileSync(
      join(OUT_DIR, 'results-shipped.json'),
      `${JSON.stringify({ date, mode, machine: machineInfo(), plan: SHIPPED_PLAN, shipped, rows: rows.map((r) => ({ ...r, verdict: verdict(r) })) }, null, 2)}\n`,
    );
    const file = join(OUT_DIR, 'RESULTS.md');
    const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Corral benchmark results\n';
    writeFileSync(file, await formatted(withShippedSection(current, rows, mode, date), file));
    log('done: wrote bench/results-shipped.json and the shipped section of bench/RESULTS.md');
  } finally {
    await removeGroups().catch((err: unknown) => log(`cleanup: ${String(err)}`));
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `--only monitor`: the 4,000 (the fake agent's 51 among them), snapshots of that table, the monitor's
 * steady-state cost and the orphan-detection latency. Its rows replace the same rows of RESULTS.md,
 * with a line saying when and under what load they were re-run.
 */
async function mainMonitor(): Promise<void> {
  const extra = POPULATIONS[POPULATIONS.length - 1]!;
  const markerKeys = matcherFor(DEFAULT_SETTINGS).markerKeys;
  const floor = compileFloor();
  const psList = await loadPsList();
  const dir = mkdtempSync(join(tmpdir(), 'corral-bench-'));
  const rows: Row[] = [];
  try {
    const agentPopulation = await startAgentPopulation(dir);
    await spawnPopulation(extra - agentPopulation.descendants - 1);
    const { tableSize, results } = await snapshotsAt(extra, { floor, markerKeys, psList });
    rows.push(...snapshotRows(extra, tableSize, results, false));
    const monitorRun = await monitorCostRun(log);
    rows.push(...monitorRows(extra, agentPopulation.descendants + 1, monitorRun.cost, monitorRun.warmup));
    const detection = await startDetectionMonitor();
    let detectionErrors: { count: number; last: string | null } | null = null;
    try {
      await sleep(PLAN.warmupSeconds * 1000);
      const latency = await detectionLatency(log, detection, agentPopulation.agent, dir);
      rows.push(...latencyRows(latency));
      const runaways = await runawayUnderContention(log, detection, agentPopulation.agent, dir);
      rows.push(...runawayRows(runaways));
    } finally {
      detectionErrors = await detection.stop();
      agentPopulation.agent.close();
    }
    rows.push(...(await stormCostRun(extra)));
    if (detectionErrors.count > 0 || monitorRun.errors.count > 0)
      log(`monitor errors: ${detectionErrors.last ?? monitorRun.errors.last}`);
    process.stdout.write(`\n${textTable(rows)}\n\n`);
    const load = loadavg()[0]!.toFixed(1);
    const file = join(OUT_DIR, 'RESULTS.md');
    const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Corral benchmark results\n';
    const note = `Rows of the 4,000-process snapshot, the monitor and orphan detection re-run with \`--only monitor\` (${quick ? 'quick' : 'full'}), ${new Date().toISOString()}, load average ${load} (1 min) on ${cpus().length} cores.`;
    writeFileSync(file, await formatted(withRowsReplaced(current, rows, note), file));
    log('done: replaced the re-run rows of bench/RESULTS.md');
  } finally {
    await removeGroups().catch((err: unknown) => log(`cleanup: ${String(err)}`));
    rmSync(dir, { recursive: true, force: true });
    if ('path' in floor) rmSync(join(floor.path, '..'), { recursive: true, force: true });
  }
}

// Whatever happens, the populations go: by PGID, synchronously, on every way out.
process.on('exit', killAllCreatedSync);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    killAllCreatedSync();
    process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1));
  });
}

if (only !== null && only !== 'shipped' && only !== 'monitor') {
  process.stderr.write(`bench: --only takes 'shipped' or 'monitor', not '${only}'\n`);
  process.exit(2);
}
(only === 'shipped' ? mainShipped() : only === 'monitor' ? mainMonitor() : main()).catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  killAllCreatedSync();
  process.exitCode = 1;
});
