// The provenance rows of the benchmark on their own (`npm run bench` runs them too):
//   unshare --pid --fork --mount-proc --kill-child tini -- tsx bench/provenance-cost.ts
// Populates the table like the full run's 4,000 (a fake agent whose tool calls left 50 processes,
// plus sleeping groups), measures, prints the rows and removes every group by PGID.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeGroups, spawnPopulation } from './lib/populations';
import { textTable } from './lib/table';
import { startAgentPopulation } from './phases/agent-population';
import { measureProvenanceCost, provenanceRows } from './phases/provenance-cost';

const EXTRA = 4000;
const dir = mkdtempSync(join(tmpdir(), 'corral-bench-'));
try {
  const agents = await startAgentPopulation(dir);
  try {
    await spawnPopulation(EXTRA - agents.descendants - 1, { timeoutMs: 300_000 });
    const cost = measureProvenanceCost(10, 20);
    process.stdout.write(`${textTable(provenanceRows(EXTRA, cost))}\n`);
  } finally {
    agents.agent.close();
  }
} finally {
  await removeGroups(undefined, 120_000);
  rmSync(dir, { recursive: true, force: true });
}
// The agent's pipes to its finished tool calls keep the event loop alive; everything is removed.
process.exit(0);
