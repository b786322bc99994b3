// Just the agent-hook rows of the benchmark (bench/run.ts runs them too, at 1,000 and 4,000):
// `unshare --pid --fork --mount-proc --kill-child tini -- tsx bench/hook-bench.ts [--quick] [--markdown]`
// after `npm run build`. Spawns its own 4,000 processes and removes them by PGID.
import { readFileSync } from 'node:fs';
import {
  createdGroups,
  killAllCreatedSync,
  liveCount,
  removeGroups,
  spawnPopulation,
} from './lib/populations';
import { markdownTable, textTable, type Row } from './lib/table';
import { hookLatencyRows, measureHookLatency } from './phases/hook-latency';
import { hookServiceRows, measureHookService } from './phases/hook-service';

const POPULATIONS = [1000, 4000];

async function main(): Promise<void> {
  const trials = process.argv.includes('--quick') ? 10 : 30;
  const rows: Row[] = [];
  let spawned = 0;
  for (const extra of POPULATIONS) {
    await spawnPopulation(extra - spawned);
    spawned = extra;
    const alive = liveCount(createdGroups());
    if (alive !== extra) throw new Error(`population should be ${extra} processes, found ${alive}`);
    rows.push(...hookServiceRows(extra, await measureHookService(trials)));
  }
  rows.push(...hookLatencyRows(spawned, await measureHookLatency(trials)));
  process.stdout.write(
    `load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}\n`,
  );
  process.stdout.write(`${textTable(rows)}\n`);
  // The same rows as bench/RESULTS.md holds them.
  if (process.argv.includes('--markdown')) process.stdout.write(`\n${markdownTable(rows)}\n`);
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
