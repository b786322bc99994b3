// What the history's filters accept (shared/contract.ts IncidentFilter), read the same way by
// `corral history` and the Incidents page. Pure.
import { GROUP_FLAGS } from './model';
import type { IncidentKind } from './model';

/** The flags an incident can record: every group flag but `session-ended`, which is not a leak. */
export const INCIDENT_FLAGS = GROUP_FLAGS.filter((f): f is IncidentKind => f !== 'session-ended');

export function isIncidentFlag(text: string): text is IncidentKind {
  return (INCIDENT_FLAGS as readonly string[]).includes(text);
}

/** The most incidents one history request may ask for (the CLI's `--limit`, the page's list). */
export const MAX_INCIDENTS_LIMIT = 10_000;

/** The farthest page a history request may skip to: far past any history a store keeps. */
export const MAX_INCIDENTS_OFFSET = 10_000_000;

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * A time a history is filtered by: a span back from `now` (`30m`, `2h`, `1h30m`, `7d`) or a date and
 * time (`2026-12-03`, `2026-12-03T14:05`, `2026-12-03T14:05:00Z`; without a zone, local time), in ms
 * since the epoch; null for anything else.
 */
export function parseHistoryTime(text: string, now: number): number | null {
  const t = text.trim();
  if (/^(\d{1,6}[smhdw])+$/.test(t)) {
    let ms = 0;
    for (const [, n, unit] of t.matchAll(/(\d+)([smhdw])/g)) ms += Number(n) * UNIT_MS[unit!]!;
    return now - ms;
  }
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(t)) return null;
  // A bare date is local midnight, as a person means it (Date.parse reads it as UTC).
  const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(t) ? `${t}T00:00` : t.replace(' ', 'T'));
  return Number.isFinite(ms) ? ms : null;
}
