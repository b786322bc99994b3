import type { Incident, IncidentKind, IncidentSpan } from '../../../shared/model';
import { INCIDENT_KINDS } from '../../../shared/flags';

export interface LegacyMerge {
  /** One incident per leaked group stretch, ready to be written back. */
  merged: Incident[];
  /** Ids of rows folded into another one, to delete. */
  folded: string[];
}

/** The order the monitor lists a group's flags in: a tie on time goes to the first. */
const FLAG_ORDER: readonly IncidentKind[] = INCIDENT_KINDS;

const endOf = (i: Incident): number => (i.closedAt === null ? Infinity : i.closedAt);

const sortSpans = (spans: IncidentSpan[]): IncidentSpan[] => spans.sort((a, b) => a.from - b.from);

function fold(into: Incident, row: Incident): void {
  for (const kind of row.flags) if (!into.flags.includes(kind)) into.flags.push(kind);
  const a = into.phases;
  const b = row.phases;
  if (b.orphanedAt !== null) a.orphanedAt = Math.min(a.orphanedAt ?? Infinity, b.orphanedAt);
  if (b.leaderlessAt !== null) a.leaderlessAt = Math.min(a.leaderlessAt ?? Infinity, b.leaderlessAt);
  a.runaway = sortSpans([...a.runaway, ...b.runaway]);
  a.heldPipe = sortSpans([...a.heldPipe, ...b.heldPipe]);
  for (const p of row.processes)
    if (!into.processes.some((q) => q.pid === p.pid && q.startKey === p.startKey)) into.processes.push(p);
  // Each old row measured the same group's CPU over part of the stretch: the largest is a lower bound.
  into.cpuSeconds = Math.max(into.cpuSeconds, row.cpuSeconds);
  into.peakRssBytes = Math.max(into.peakRssBytes, row.peakRssBytes);
  into.agent ??= row.agent;
  into.agentPid ??= row.agentPid;
  if (into.end === 'open' || row.end === 'open') {
    into.end = 'open';
    into.closedAt = null;
    into.closedAtSource = null;
  } else if (endOf(row) >= endOf(into)) {
    into.end = row.end;
    into.closedAt = row.closedAt;
    into.closedAtSource = row.closedAtSource;
  }
}

/**
 * Databases written before incidents had phases hold one row per (group, flag): an orphaned loop is
 * three rows. Rows of one group whose times overlap are one leak: they become one incident, keeping the
 * earliest row's id and kind (the first flag), every flag as a phase, and CPU counted once.
 */
export function mergeLegacyRows(rows: readonly Incident[]): LegacyMerge {
  const byGroup = new Map<string, Incident[]>();
  for (const row of rows) {
    const list = byGroup.get(row.groupId) ?? [];
    list.push(row);
    byGroup.set(row.groupId, list);
  }
  const merged: Incident[] = [];
  const folded: string[] = [];
  for (const list of byGroup.values()) {
    list.sort((a, b) => a.openedAt - b.openedAt || FLAG_ORDER.indexOf(a.kind) - FLAG_ORDER.indexOf(b.kind));
    let current: Incident | null = null;
    for (const row of list) {
      if (current && row.openedAt <= endOf(current)) {
        fold(current, row);
        folded.push(row.id);
        continue;
      }
      current = structuredClone(row);
      merged.push(current);
    }
  }
  return { merged, folded };
}
