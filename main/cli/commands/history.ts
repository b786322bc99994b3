import { COMMAND_SPECS } from '../command-specs';
import { parseCommandArgs } from '../parse-command-args';
import type { Settings } from '../../../shared/model';
import { historyNow } from '../../core/facade/history-now';
import { commandThatMatters } from '../../../shared/words/command-summary';
import { formatCpuSeconds } from '../../../shared/words/cpu-time';
import { flagsInWords } from '../../../shared/words/flag-words';
import { spawnStormPeak } from '../../../shared/words/spawn-storm-words';
import { incidentEndWords } from '../../../shared/words/end-words';
import { keepsRefused } from '../keeps-refused';
import { formatDuration, formatTable, printable } from '../terminal-text';
import { terminal, truncate } from '../terminal';
import { historyQuery } from '../history-query';

export async function runHistory(
  args: string[],
  _settings: Settings,
  out: (text: string) => void,
): Promise<number> {
  const { values } = parseCommandArgs(COMMAND_SPECS.history, args);
  const query = historyQuery(values, Date.now());
  const limit = query.limit!;
  const filtered = Object.keys(query).some((key) => key !== 'limit' && key !== 'offset');
  const { incidents, more, problem, kept } = historyNow(query, keepsRefused);
  if (problem) process.stderr.write(`corral history: storage: ${problem}\n`);
  if (values.json) {
    out(JSON.stringify({ incidents }));
    return 0;
  }
  if (incidents.length === 0) {
    out(filtered || query.offset ? 'No incidents match.' : 'No incidents recorded.');
    return 0;
  }
  const now = Date.now();
  const rows = [['AGENT', 'WHAT', 'FIRST SEEN', 'DURATION', 'CPU', 'ENDED', 'GROUP', 'COMMAND']];
  for (const i of incidents) {
    rows.push([
      i.agent ?? '-',
      // Every flag the leak had (a loop is orphaned, then runaway), in words; the terms are in --json.
      flagsInWords(i.flags.length > 0 ? i.flags : [i.kind]).join(', ') +
        (i.spawnStorm ? ` (${printable(spawnStormPeak(i.spawnStorm))})` : ''),
      new Date(i.openedAt).toISOString().replace('T', ' ').slice(0, 19),
      formatDuration((i.closedAt ?? now) - i.openedAt),
      formatCpuSeconds(i.cpuSeconds),
      incidentEndWords(i.end, i.end === 'open' && kept(i)),
      i.groupId,
      printable(commandThatMatters(i.processes[0]?.command ?? '')),
    ]);
  }
  const width = terminal().width;
  out(
    formatTable(rows)
      .split('\n')
      .map((line) => truncate(line, width))
      .join('\n'),
  );
  if (more) out(`More match: add --offset ${(query.offset ?? 0) + limit} for the next ${limit}.`);
  return 0;
}
