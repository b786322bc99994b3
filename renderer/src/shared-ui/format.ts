export { formatBytes, formatDuration } from '../../../shared/format';
export { formatCpuSeconds } from '../../../shared/cpu-time';

export function formatPercent(percent: number | null): string {
  return percent === null ? '—' : `${percent.toFixed(1)}%`;
}

export function formatClock(at: number): string {
  return new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

export function formatDateTime(at: number): string {
  return new Date(at).toLocaleString();
}
