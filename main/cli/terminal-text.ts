import { scaleBytes } from '../../shared/format';
import { visibleText } from '../../shared/visible-text';

/**
 * Makes any string safe to print on a terminal: control characters, bidirectional overrides (which
 * can make a name display reversed) and zero-width characters become visible escapes, exactly as
 * the UI shows them (shared/visible-text.ts).
 */
export function printable(text: string): string {
  return visibleText(text);
}

// Not shared/format.ts's words on purpose: a table column wants them compact (`1.5K`, `12m05s`, as ps has it).

/** `512B`, `1.5K`, `12M`, `3.2G`. */
export function formatBytes(bytes: number): string {
  const { figure, unit } = scaleBytes(bytes, 10);
  return `${figure}${'BKMGT'[unit]}`;
}

/** `45s`, `12m05s`, `3h05m` (up to two days), `2d4h`. */
export function formatDuration(ms: number): string {
  if (Number.isNaN(ms)) return '?';
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h${String(m % 60).padStart(2, '0')}m`;
  return `${Math.floor(h / 24)}d${h % 24}h`;
}

/** Left-aligned columns; the last column is not padded. */
export function formatTable(rows: string[][]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows
    .map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  '))
    .join('\n');
}
