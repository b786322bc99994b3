// What a gap in sampling means for CPU readings, as a pure decision. A machine that slept, or an app
// App Nap throttled, sees one long interval: a CPU delta over it is no reading of the last second, and a
// hot streak that began before it must not count the gap as time spent hot (a sleep is not a runaway).

export type PowerEvent =
  | { kind: 'suspend' }
  | { kind: 'resume' }
  /** A snapshot arrived `sinceLastMs` after the previous one, with this poll interval. */
  | { kind: 'snapshot'; sinceLastMs: number; pollIntervalMs: number };

/** A gap longer than this many poll intervals (and at least GAP_FLOOR_MS) is a stall, not jitter. */
export const GAP_INTERVALS = 3;
export const GAP_FLOOR_MS = 5000;

/** 'rebaseline': CPU readings and hot streaks start afresh; 'keep': nothing to do. */
export function readingsAfter(event: PowerEvent): 'rebaseline' | 'keep' {
  switch (event.kind) {
    case 'suspend':
    case 'resume':
      return 'rebaseline';
    case 'snapshot':
      return event.sinceLastMs > Math.max(GAP_INTERVALS * event.pollIntervalMs, GAP_FLOOR_MS)
        ? 'rebaseline'
        : 'keep';
  }
}
