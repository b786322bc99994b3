import type { Row } from './lib/table';
import type { StormCost, StormWindow } from './phases/storm-cost';

/** Issue 46: a storm costs `watch` at most this much of a core, and this much RSS over its quiet figure. */
const CPU_TARGET_PERCENT = 2;
const RSS_TARGET_MB = 20;
/** The storm the targets speak of: at least this many births a minute. */
const STORM_BIRTHS_PER_MINUTE = 2000;

const one = (value: number): Row['summary'] => ({ median: value, min: value, max: value, n: 1 });

/**
 * Corral's own cost while a fork storm runs beside the table: CPU and RSS of `corral watch --json` in each
 * storm window against the targets, beside the quiet window of the same run, and the events it wrote.
 */
export function stormRows(extra: number, cost: StormCost): Row[] {
  const section = `fork storm beside ${extra.toLocaleString('en-US')} extra, corral watch --json`;
  const births = (w: StormWindow): string =>
    `${Math.round(w.birthsPerMinute).toLocaleString('en-US')} births a minute${w.birthsPerMinute < STORM_BIRTHS_PER_MINUTE ? ` (under the ${STORM_BIRTHS_PER_MINUTE.toLocaleString('en-US')} the target speaks of)` : ''}`;
  const load = (w: StormWindow): string => `load ${w.loadavg.join(' / ')}`;
  const windows: Array<[string, StormWindow]> = [
    ['storm, first window (flagged after the 30 s window)', cost.storm],
    ['storm, next window', cost.stormLater],
  ];
  const rows: Row[] = [
    {
      section,
      name: 'quiet: CPU',
      unit: '% core',
      summary: one(cost.quiet.cpuPercent),
      note: `before the storm, the same process; peak RSS ${cost.quiet.peakRssMb.toFixed(1)} MB; ${load(cost.quiet)}`,
    },
  ];
  for (const [name, w] of windows)
    rows.push(
      {
        section,
        name: `${name}: CPU`,
        unit: '% core',
        summary: one(w.cpuPercent),
        target: { kind: 'at-most', value: CPU_TARGET_PERCENT },
        note: `${births(w)}; ${load(w)}`,
      },
      {
        section,
        name: `${name}: peak RSS over the quiet figure`,
        unit: 'MB',
        summary: one(w.peakRssMb - cost.quiet.peakRssMb),
        target: { kind: 'at-most', value: RSS_TARGET_MB },
        note: `peak ${w.peakRssMb.toFixed(1)} MB, quiet ${cost.quiet.peakRssMb.toFixed(1)} MB`,
      },
      {
        section,
        name: `${name}: events written`,
        unit: '/s',
        summary: one(w.eventsPerSecond),
        note: `${w.events} lines, ${(w.bytesPerSecond / 1024).toFixed(1)} KB/s: ${JSON.stringify(w.types)}`,
      },
    );
  if (cost.errors) rows[0]!.note += `; stderr: ${cost.errors.slice(0, 200)}`;
  return rows;
}
