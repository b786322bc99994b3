import type { TimeRange } from '../store/ui-slice';

export const RANGE_MS: Record<TimeRange, number | null> = {
  '5m': 5 * 60_000,
  '1h': 60 * 60_000,
  '24h': 24 * 60 * 60_000,
  all: null,
};

export const RANGE_LABELS: Record<TimeRange, string> = {
  '5m': 'Last 5 min',
  '1h': '1 h',
  '24h': '24 h',
  all: 'All',
};

export const RANGES: TimeRange[] = ['5m', '1h', '24h', 'all'];
