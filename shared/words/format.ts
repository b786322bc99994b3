// How a person reads sizes and durations: the desktop's tray, notifications and windows alike. The
// terminal keeps its own compact size words for table columns (main/cli/terminal-text.ts) on top of
// scaleBytes; durations read the same everywhere. Pure; shared by main and the renderer.

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

/**
 * `bytes` in the largest binary unit (0 bytes, 1 Ki, 2 Mi, 3 Gi, 4 Ti) that shows it below 1024:
 * bytes whole; other units with one decimal below `wholeFrom` and whole from there. A value is placed
 * by the figure shown, so 1023.96 KiB reads 1.0 MiB, never 1024 KiB.
 */
export function scaleBytes(bytes: number, wholeFrom: number): { figure: string; unit: number } {
  let value = bytes;
  let unit = 0;
  let figure = String(Math.round(value));
  while (Number(figure) >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
    const tenths = value.toFixed(1);
    figure = Number(tenths) >= wholeFrom ? String(Math.round(value)) : tenths;
  }
  return { figure, unit };
}

/** `512 B`, `1.5 KiB`, `12.0 MiB`, `300 MiB`. */
export function formatBytes(bytes: number): string {
  const { figure, unit } = scaleBytes(bytes, 100);
  return `${figure} ${BYTE_UNITS[unit]}`;
}

/**
 * `45s`, `12m05s`, `3h05m`, `2d4h`: every duration Corral shows, in the CLI's tables and `watch`, the
 * UI's tables and timeline, the tray, notifications and the hook's notes alike. Compact enough for a
 * column, exact enough that two views of one group never read "2m" and "2m54s".
 */
export function formatDuration(ms: number): string {
  if (Number.isNaN(ms)) return '?';
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h}h${String(m % 60).padStart(2, '0')}m`;
  return `${Math.floor(h / 24)}d${h % 24}h`;
}

/** The step formatDuration reads `ms` in: a second (up to an hour), a minute (up to a day), an hour. */
function durationStep(ms: number): number {
  if (ms < 3_600_000) return 1000;
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

/** A time of day in the user's locale, to the second: the timeline's axis and its story. */
export function formatClock(at: number): string {
  return new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}
