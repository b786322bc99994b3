// Just the memory rows of what ships (`corral watch --json` and `corral serve` at 1,000 extra processes,
// beside an idle Node process), without the rest of bench/run.ts:
//   unshare --pid --fork --mount-proc --kill-child tini -- npx tsx bench/shipped-memory.ts [--quick]
// Prints its rows; writes nothing, so the last full run's results stay as they were.
import { removeGroups, procCount } from './lib/populations';
import { textTable } from './lib/table';
import { measureShippedMemoryAt } from './phases/shipped-memory';
import { shippedMemoryRows } from './report-shipped-memory';

const EXTRA = 1000;

async function main(): Promise<void> {
  try {
    process.stderr.write(
      `[bench] watch and serve memory over ${EXTRA} extra processes (${procCount()} now)\n`,
    );
    const memory = await measureShippedMemoryAt(EXTRA, process.argv.includes('--quick'));
    process.stdout.write(`\n${textTable(shippedMemoryRows(EXTRA, memory))}\n\n${JSON.stringify(memory)}\n`);
  } finally {
    await removeGroups();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
