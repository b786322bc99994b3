// How long a keep lasts, as the CLI takes it (`--for 30m`, `8h`, `2d`) and as the UI and `corral ps`
// show what is left of it ("kept, 2h59m left"). Pure; shared by the CLI and the renderer.
import { formatDuration } from './format';

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

/** The words a kept group is shown with: `kept, 2h59m left`, in the one duration format. */
export function keptLabel(until: number, now: number): string {
  return `kept, ${formatDuration(until - now)} left`;
}
