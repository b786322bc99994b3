// How long a keep lasts, as the CLI takes it (`--for 30m`, `8h`, `2d`) and as the UI and `corral ps`
// show what is left of it ("kept, 3 h left"). Pure; shared by the CLI and the renderer.

/** How long a keep lasts when no duration is given: a working day. */
export const DEFAULT_KEEP_MS = 8 * 3_600_000;
/** The longest keep: a keep is a reprieve, not a permanent exception (that is what policies are for). */
export const MAX_KEEP_MS = 30 * 24 * 3_600_000;

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `30m`, `8h`, `2d` (a whole number and a unit) → ms; null for anything else or zero. */
export function parseKeepDuration(text: string): number | null {
  const m = /^(\d{1,5})([mhd])$/.exec(text.trim());
  if (!m) return null;
  const ms = Number(m[1]) * UNIT_MS[m[2]!]!;
  return ms > 0 ? ms : null;
}

/** What is left of a keep, in one rounded unit: `45 min`, `3 h`, `2 d`. */
export function formatKeepLeft(leftMs: number): string {
  const minutes = Math.max(1, Math.ceil(leftMs / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.round(hours / 24)} d`;
}

/** The words a kept group is shown with: `kept, 3 h left`. */
export function keptLabel(until: number, now: number): string {
  return `kept, ${formatKeepLeft(until - now)} left`;
}
