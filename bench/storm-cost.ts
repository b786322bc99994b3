// Corral's cost in a fork storm beside 4,000 processes, quiet and storming side by side in one run:
//   unshare --pid --fork --mount-proc --kill-child tini -- npx tsx bench/storm-cost.ts [--quick]
// Needs the built CLI (npm run build). Prints its rows and the JSON; writes nothing. `npm run bench`
// (and `--only monitor`) measures the same rows in its own run.
import { textTable } from './lib/table';
import { procCount, removeGroups, spawnPopulation } from './lib/populations';
import { measureStormCost, stormCostPlan } from './phases/storm-cost';
import { stormRows } from './report-storm';

const EXTRA = 4000;

async function main(): Promise<void> {
  try {
    await spawnPopulation(EXTRA);
    process.stderr.write(`[bench] storm cost over ${EXTRA} extra processes (${procCount()} now)\n`);
    const cost = await measureStormCost(stormCostPlan(process.argv.includes('--quick')));
    process.stdout.write(`\n${textTable(stormRows(EXTRA, cost))}\n\n${JSON.stringify(cost)}\n`);
  } finally {
    await removeGroups();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
