export { formatBytes, formatClock, formatDuration } from '../../../shared/words/format';
export { formatCpuSeconds } from '../../../shared/words/cpu-time';

export function formatPercent(percent: number | null): string {
  return percent === null ? '—' : `${percent.toFixed(1)}%`;
}

export function formatDateTime(at: number): string {
  return new Date(at).toLocaleString();
}
