/** `45s`, `12m`, `3h 12m`, `2d 4h`: coarse enough for a menu or a notification. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? `${h}h ${m % 60}m` : `${h}h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d}d ${h % 24}h` : `${d}d`;
}

/** The step formatDuration reads `ms` in: a second, a minute (up to a day), an hour. */
function durationStep(ms: number): number {
  if (ms < 60_000) return 1000;
  if (ms < 24 * 3_600_000) return 60_000;
  return 3_600_000;
}

/** How long until formatDuration of a growing age (`ageMs` now) reads otherwise. */
export function msUntilAgeReadsOtherwise(ageMs: number): number {
  const age = Math.max(0, ageMs);
  const step = durationStep(age);
  return step - (age % step);
}

/** How long until formatDuration of a shrinking time left (`leftMs` now) reads otherwise. */
export function msUntilCountdownReadsOtherwise(leftMs: number): number {
  return (Math.max(0, leftMs) % durationStep(leftMs)) + 1;
}

export function formatCpu(percent: number | null): string {
  return percent === null ? 'CPU ?' : `${Math.round(percent)}% CPU`;
}

/** The part of a command line a person recognises, bounded for a menu item. */
export function shortCommand(command: string, max = 40): string {
  const oneLine = command.replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}
