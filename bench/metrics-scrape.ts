// Just the `corral metrics` row of the benchmark, over 1,000 extra processes, without the rest of
// bench/run.ts (which measures it over its 4,000):
//   unshare --pid --fork --mount-proc --kill-child tini -- npx tsx bench/metrics-scrape.ts --quick
// Prints its rows; writes nothing, so the last full run's results stay as they were.
import { createdGroups, liveCount, procCount, removeGroups, spawnPopulation } from './lib/populations';
import { textTable } from './lib/table';
import { measureScrapeCost } from './phases/metrics-scrape';
import { scrapeRows } from './report';

const quick = process.argv.includes('--quick');
const SCRAPE_PLAN = quick
  ? { pairs: 2, windowSeconds: 30, scrapeEverySeconds: 15, warmupSeconds: 10, burst: 20 }
  : { pairs: 4, windowSeconds: 60, scrapeEverySeconds: 15, warmupSeconds: 30, burst: 50 };
const EXTRA = 1000;

async function main(): Promise<void> {
  try {
    await spawnPopulation(EXTRA);
    const alive = liveCount(createdGroups());
    if (alive !== EXTRA) throw new Error(`population should be ${EXTRA} extra processes, found ${alive}`);
    process.stderr.write(
      `[bench] corral metrics over ${EXTRA} extra processes (${procCount()} in the table)\n`,
    );
    const cost = await measureScrapeCost(SCRAPE_PLAN, procCount);
    process.stdout.write(`\n${textTable(scrapeRows(EXTRA, cost))}\n\n${JSON.stringify(cost)}\n`);
  } finally {
    await removeGroups();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
