import { homedir } from 'node:os';
import { parseArgs } from 'node:util';
import type { Settings } from '../../../shared/model';
import { resolveDataDir } from '../../core/storage/data-dir';
import { IncidentStore } from '../../core/storage/incident-store';
import { formatDuration, formatTable, printable } from '../terminal-text';
import { UsageError } from '../usage-error';

export async function runHistory(
  args: string[],
  _settings: Settings,
  out: (text: string) => void,
): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { json: { type: 'boolean', default: false }, limit: { type: 'string', default: '100' } },
    strict: true,
  });
  const limit = Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100_000)
    throw new UsageError(`--limit: expected 1..100000, got '${values.limit}'`);
  const store = IncidentStore.open(resolveDataDir(process.env, process.platform, homedir()), {
    role: 'reader',
  });
  try {
    const incidents = store.list({ limit });
    // After the read: it is the read that finds malformed rows.
    if (store.problem) process.stderr.write(`corral history: storage: ${store.problem}\n`);
    if (values.json) {
      out(JSON.stringify({ incidents }));
      return 0;
    }
    if (incidents.length === 0) {
      out('No incidents recorded.');
      return 0;
    }
    const now = Date.now();
    const rows = [['AGENT', 'WHAT', 'FIRST SEEN', 'DURATION', 'CPU-S', 'ENDED', 'GROUP', 'COMMAND']];
    for (const i of incidents) {
      rows.push([
        i.agent ?? '-',
        i.kind,
        new Date(i.openedAt).toISOString().replace('T', ' ').slice(0, 19),
        formatDuration((i.closedAt ?? now) - i.openedAt),
        i.cpuSeconds.toFixed(1),
        i.end,
        i.groupId,
        printable(i.processes[0]?.command ?? '').slice(0, 120),
      ]);
    }
    out(formatTable(rows));
    return 0;
  } finally {
    store.close();
  }
}
