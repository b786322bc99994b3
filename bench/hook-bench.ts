// Just the agent-hook row of the benchmark (bench/run.ts runs it too, in its 4,000 phase):
// `unshare --pid --fork --mount-proc --kill-child tini -- tsx bench/hook-bench.ts [--quick]`
// after `npm run build`. Spawns its own 4,000 processes and removes them by PGID.
import {
  createdGroups,
  killAllCreatedSync,
  liveCount,
  removeGroups,
  spawnPopulation,
} from './lib/populations';
import { textTable } from './lib/table';
import { hookLatencyRows, measureHookLatency } from './phases/hook-latency';

const EXTRA = 4000;

async function main(): Promise<void> {
  await spawnPopulation(EXTRA);
  const alive = liveCount(createdGroups());
  if (alive !== EXTRA) throw new Error(`population should be ${EXTRA} processes, found ${alive}`);
  const result = await measureHookLatency(process.argv.includes('--quick') ? 10 : 30);
  process.stdout.write(`${textTable(hookLatencyRows(EXTRA, result))}\n`);
}

process.on('exit', killAllCreatedSync);
main()
  .catch((err: unknown) => {
    process.stderr.write(
      `hook bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exitCode = 1;
  })
  .finally(() => removeGroups().catch(() => undefined));
