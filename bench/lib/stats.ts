/** Summary of repeated measurements: the median, the extremes and how many there were. */
export interface Summary {
  median: number;
  min: number;
  max: number;
  n: number;
}

/** Percentile by linear interpolation between closest ranks (p in 0..100); NaN for no values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (Math.min(100, Math.max(0, p)) / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (rank - lo);
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

export function summarize(values: readonly number[]): Summary {
  if (values.length === 0) return { median: NaN, min: NaN, max: NaN, n: 0 };
  return { median: median(values), min: Math.min(...values), max: Math.max(...values), n: values.length };
}

/** Ratio of two summaries' medians, with min/max taken from the per-round ratios when both have rounds. */
export function ratioSummary(numerators: readonly number[], denominators: readonly number[]): Summary {
  const d = median(denominators);
  if (!(d > 0)) return { median: NaN, min: NaN, max: NaN, n: 0 };
  const ratios = numerators.map((x) => x / d);
  return { ...summarize(ratios), median: median(numerators) / d };
}
