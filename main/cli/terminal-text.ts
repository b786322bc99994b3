import { scaleBytes } from '../../shared/words/format';
import { visibleText } from '../../shared/words/visible-text';

/**
 * Makes any string safe to print on a terminal: control characters, bidirectional overrides (which
 * can make a name display reversed) and zero-width characters become visible escapes, exactly as
 * the UI shows them (shared/words/visible-text.ts).
 */
export function printable(text: string): string {
  return visibleText(text);
}

// Not shared/words/format.ts's size words on purpose: a table column wants them compact (`1.5K`, as ps has it).
// Durations read the same in every view: shared/words/format.ts's formatDuration.
export { formatDuration } from '../../shared/words/format';

/** `512B`, `1.5K`, `12M`, `3.2G`. */
export function formatBytes(bytes: number): string {
  const { figure, unit } = scaleBytes(bytes, 10);
  return `${figure}${'BKMGT'[unit]}`;
}

/** Left-aligned columns; the last column is not padded. */
export function formatTable(rows: string[][]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows
    .map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  '))
    .join('\n');
}
