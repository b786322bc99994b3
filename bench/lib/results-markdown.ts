// Rewriting bench/RESULTS.md: the whole file from a full run, the "what ships" section, or re-run rows in
// place. Pure text in and out (but for Prettier's configuration), apart from the runs that measure.
import { cpus, loadavg } from 'node:os';
import type { machineInfo } from './machine';
import { markdownTable, type Row } from './table';

/** The Markdown as the repository's Prettier would write it, so `format:check` stays clean. */
export async function formatted(markdown: string, file: string): Promise<string> {
  try {
    const prettier = await import('prettier');
    const config = (await prettier.resolveConfig(file)) ?? {};
    return await prettier.format(markdown, { ...config, filepath: file });
  } catch {
    return markdown;
  }
}

export function resultsMarkdown(
  rows: readonly Row[],
  mode: string,
  date: string,
  machine: ReturnType<typeof machineInfo>,
  loadLine: string,
): string {
  return [
    '# Corral benchmark results',
    '',
    `${mode} run, ${date}, on ${machine.cpuModel} (${machine.cores} cores), Linux ${machine.kernel}, Node ${machine.node}.`,
    'CPU figures are user + system time per snapshot, children included; medians with min and max over rounds.',
    'Produced by `npm run bench` (see bench/README.md); the raw figures are in bench/results.json.',
    loadLine,
    '',
    markdownTable(rows),
    '',
  ].join('\n');
}

const SHIPPED_START = '<!-- shipped:start -->';
const SHIPPED_END = '<!-- shipped:end -->';

/** RESULTS.md with its "what ships" section (re)written; the rest of the file is kept as it was. */
export function withShippedSection(
  markdown: string,
  shipped: readonly Row[],
  mode: string,
  date: string,
): string {
  const section = [
    SHIPPED_START,
    '',
    '## What ships: whole processes',
    '',
    `${mode} run, ${date}. CPU of whole processes (all threads, utime + stime from \`/proc/<pid>/stat\`) over one window each:`,
    '`corral watch --json` (the monitor alone), `corral serve` with no page and with one Chromium page on "Everything", and the',
    'desktop arrangement (the core in a worker thread from `out/main/service-worker.js`, in a plain Node process).',
    "A single window per figure: a noisy machine moves them by more than the targets allow, so read them with the run's conditions.",
    `Load average when written: ${loadavg()[0]!.toFixed(1)} (1 min) on ${cpus().length} cores.`,
    '',
    markdownTable(shipped),
    '',
    SHIPPED_END,
  ].join('\n');
  const start = markdown.indexOf(SHIPPED_START);
  const end = markdown.indexOf(SHIPPED_END);
  if (start >= 0 && end > start)
    return markdown.slice(0, start) + section + markdown.slice(end + SHIPPED_END.length);
  return `${markdown.trimEnd()}\n\n${section}\n`;
}

const RERUN_START = '<!-- rerun:start -->';
const RERUN_END = '<!-- rerun:end -->';

/** RESULTS.md with each re-run row in place of the row of the same measurement (added when new), and the note. */
export function withRowsReplaced(markdown: string, rows: readonly Row[], note: string): string {
  const lines = markdown.split('\n');
  // The same measurement, whatever the table held that time: "(4006 in table)" matches "(4004 in table)".
  const firstCell = (line: string): string =>
    (line.split('|')[1]?.trim() ?? '').replace(/\(\d+ in table\)/, '(… in table)');
  for (const row of rows) {
    const line = markdownTable([row]).split('\n').at(-1)!;
    const at = lines.findIndex((l) => l.startsWith('|') && firstCell(l) === firstCell(line));
    if (at >= 0) lines[at] = line;
    else {
      // A new row goes after the last of its section, else at the end of the first table.
      const section = `${row.section}:`;
      const lastOfSection = lines.findLastIndex((l) => l.startsWith('|') && firstCell(l).startsWith(section));
      const lastRow = lines.findIndex((l, i) => l.startsWith('|') && !lines[i + 1]?.startsWith('|'));
      lines.splice((lastOfSection >= 0 ? lastOfSection : lastRow) + 1, 0, line);
    }
  }
  let out = lines.join('\n');
  const start = out.indexOf(RERUN_START);
  const end = out.indexOf(RERUN_END);
  if (start >= 0 && end > start)
    out = out.slice(0, start) + out.slice(end + RERUN_END.length).replace(/^\n+/, '');
  const table = out.indexOf('\n|');
  const block = `${RERUN_START}\n${note}\n${RERUN_END}\n`;
  return table >= 0 ? `${out.slice(0, table + 1)}${block}\n${out.slice(table + 1)}` : `${out}\n${block}`;
}
