/** CPU time in the unit a person reads at a glance: 12.3 s, 2.2 min, 1.5 h (the UI and the CLI alike). */
export function formatCpuSeconds(seconds: number): string {
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  if (seconds < 3600) return `${(seconds / 60).toFixed(1)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}
