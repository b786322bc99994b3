// Corral's cost in a fork storm beside 4,000 processes, quiet and storming side by side in one run:
//   unshare --pid --fork --mount-proc --kill-child tini -- npx tsx bench/storm-cost.ts [--quick]
// Needs the built CLI (npm run build). Prints its rows and the JSON; writes nothing.
import { procCount, removeGroups, spawnPopulation } from './lib/populations';
import { measureStormCost, stormCostPlan, type StormWindow } from './phases/storm-cost';

const EXTRA = 4000;

const row = (name: string, w: StormWindow): string[] => [
  name,
  w.cpuPercent.toFixed(2),
  w.peakRssMb.toFixed(1),
  w.eventsPerSecond.toFixed(2),
  (w.bytesPerSecond / 1024).toFixed(1),
  Math.round(w.birthsPerMinute).toLocaleString('en-US'),
  w.loadavg.join(' / '),
];

async function main(): Promise<void> {
  try {
    await spawnPopulation(EXTRA);
    process.stderr.write(`[bench] storm cost over ${EXTRA} extra processes (${procCount()} now)\n`);
    const cost = await measureStormCost(stormCostPlan(process.argv.includes('--quick')));
    const rows = [
      [
        'corral watch --json',
        'CPU % of a core',
        'peak RSS MB',
        'events/s',
        'KB/s out',
        'births/min',
        'load 1/5/15',
      ],
      row('quiet', cost.quiet),
      row('fork storm, first window', cost.storm),
      row('fork storm, next window', cost.stormLater),
    ];
    const table = rows.map(
      (r, i) => `| ${r.join(' | ')} |${i === 0 ? `\n|${r.map(() => ' --- |').join('')}` : ''}`,
    );
    process.stdout.write(`\n${table.join('\n')}\n\n${JSON.stringify(cost)}\n`);
  } finally {
    await removeGroups();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
