import type { Row } from './lib/table';
import type { ResidentKb, ShippedMemory } from './phases/shipped-memory';

/** Issue 35's target for `watch` and `serve` at 1,000 processes. */
const TARGET_MB = 50;

function mb(kb: number): number {
  return kb / 1024;
}

function one(value: number | null): Row['summary'] {
  return value === null ? null : { median: value, min: value, max: value, n: 1 };
}

function parts(r: ResidentKb | null): string {
  return r ? `anonymous ${mb(r.anon).toFixed(1)} MB, file-backed ${mb(r.file).toFixed(1)} MB` : '';
}

export function shippedMemoryRows(extra: number, m: ShippedMemory): Row[] {
  const section = `memory, ${extra.toLocaleString('en-US')} extra (${m.tableSize} in table)`;
  const missing = m.missing.length > 0 ? m.missing.join('; ') : null;
  const floor = m.nodeFloor
    ? `; an idle Node ${m.node} process: ${mb(m.nodeFloor.rss).toFixed(1)} MB (${parts(m.nodeFloor)})`
    : '';
  const row = (name: string, r: ResidentKb | null): Row => ({
    section,
    name: `${name}: resident set (RSS)`,
    unit: 'MB',
    summary: one(r ? mb(r.rss) : null),
    target: { kind: 'at-most', value: TARGET_MB },
    targetOn: 'max',
    note: r ? `highest reading, whole process; ${parts(r)}${floor}` : (missing ?? 'not measured'),
  });
  return [row('corral watch --json', m.watch), row('corral serve, no page', m.serve)];
}
