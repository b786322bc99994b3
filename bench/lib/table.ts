import { percentile, summarize, type Summary } from './stats';

/** A limit a figure must stay within: `at-most` 250 means median <= 250. */
export interface Target {
  kind: 'at-most' | 'at-least';
  value: number;
}

/** One line of the results table. */
export interface Row {
  section: string;
  name: string;
  unit: string;
  /** null when the measurement could not be taken (then `note` says why). */
  summary: Summary | null;
  target?: Target;
  /** Which statistic the target is checked against (median unless it says p95). */
  targetOn?: 'median' | 'p95' | 'max';
  p95?: number;
  note?: string;
}

/** What a row of repeated timings says beside its samples: a p95 target, a note, or why it is missing. */
export interface SampledRowOptions {
  /** The p95 must stay at or under this. */
  p95AtMost?: number;
  note?: string;
  /** Why the samples could not be taken: the row then has no figures and says this instead of `note`. */
  missing?: string;
}

/** A row of repeated timings: their median, extremes and p95, the target (if any) checked on the p95. */
export function sampledRow(
  section: string,
  name: string,
  unit: string,
  samples: readonly number[],
  { p95AtMost, note, missing }: SampledRowOptions = {},
): Row {
  return {
    section,
    name,
    unit,
    summary: missing ? null : summarize(samples),
    p95: percentile(samples, 95),
    ...(p95AtMost === undefined ? {} : { target: { kind: 'at-most', value: p95AtMost }, targetOn: 'p95' }),
    ...(missing || note ? { note: missing ?? note } : {}),
  };
}

export type Verdict = 'pass' | 'FAIL' | 'n/a' | '';

export function verdict(row: Row): Verdict {
  if (!row.target) return '';
  if (!row.summary || Number.isNaN(row.summary.median)) return 'n/a';
  const on = row.targetOn ?? 'median';
  const value = on === 'p95' ? row.p95 : on === 'max' ? row.summary.max : row.summary.median;
  if (value === undefined || Number.isNaN(value)) return 'n/a';
  const ok = row.target.kind === 'at-most' ? value <= row.target.value : value >= row.target.value;
  return ok ? 'pass' : 'FAIL';
}

/** Three significant digits, no exponent for the ranges a benchmark prints. */
export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return Number.isNaN(n) ? '–' : String(n);
  const abs = Math.abs(n);
  if (abs === 0) return '0';
  if (abs >= 100) return String(Math.round(n));
  if (abs >= 10) return n.toFixed(1);
  if (abs >= 1) return n.toFixed(2);
  if (abs >= 0.01) return n.toFixed(3);
  return n.toPrecision(2);
}

export function formatTarget(row: Row): string {
  if (!row.target) return '';
  const sign = row.target.kind === 'at-most' ? '≤' : '≥';
  const on = row.targetOn && row.targetOn !== 'median' ? `${row.targetOn} ` : '';
  return `${on}${sign} ${formatNumber(row.target.value)}`;
}

const HEADERS = ['measurement', 'median', 'min', 'max', 'unit', 'target', 'result', 'note'] as const;

function cells(row: Row): string[] {
  const s = row.summary;
  const medianText = s
    ? formatNumber(s.median) + (row.p95 !== undefined ? ` (p95 ${formatNumber(row.p95)})` : '')
    : '–';
  return [
    `${row.section}: ${row.name}`,
    medianText,
    s ? formatNumber(s.min) : '–',
    s ? formatNumber(s.max) : '–',
    row.unit,
    formatTarget(row),
    verdict(row),
    row.note ?? '',
  ];
}

/** A fixed-width text table for the terminal. */
export function textTable(rows: readonly Row[]): string {
  const body = rows.map(cells);
  const widths = HEADERS.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (r: readonly string[]): string =>
    r
      .map((c, i) => (i === 0 || i >= 4 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(HEADERS), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

/** The same rows as a Markdown table (pipes in cells escaped). */
export function markdownTable(rows: readonly Row[]): string {
  const esc = (c: string): string => c.replaceAll('|', '\\|');
  const out = [
    `| ${HEADERS.join(' | ')} |`,
    `|${HEADERS.map((_, i) => (i >= 1 && i <= 3 ? ' ---: ' : ' --- ')).join('|')}|`,
  ];
  for (const r of rows) out.push(`| ${cells(r).map(esc).join(' | ')} |`);
  return out.join('\n');
}
