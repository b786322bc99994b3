export { formatBytes, formatClock, formatDuration } from '../../../shared/format';
export { formatCpuSeconds } from '../../../shared/cpu-time';

export function formatPercent(percent: number | null): string {
  return percent === null ? '—' : `${percent.toFixed(1)}%`;
}

export function formatDateTime(at: number): string {
  return new Date(at).toLocaleString();
}
