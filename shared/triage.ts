// Triage order, shared by the UI and the CLI: the most urgent group first.
import type { GroupView } from './model';

export type Severity = 'critical' | 'warning' | 'notice' | 'none';

/**
 * How urgent each flag is. Flags other work adds later (`memory-hog`, `session-ended`) are ranked
 * here by name so they sort correctly as soon as the core sends them; unknown flags count as notices.
 */
const FLAG_RANK: Record<string, number> = {
  runaway: 3,
  'memory-hog': 3,
  'spawn-storm': 3,
  'held-pipe': 2,
  orphan: 2,
  'session-ended': 2,
  leaderless: 1,
};

const SEVERITY_OF_RANK: Severity[] = ['none', 'notice', 'warning', 'critical'];

export function flagRank(flag: string): number {
  return FLAG_RANK[flag] ?? 1;
}

export function groupRank(group: Pick<GroupView, 'flags'>): number {
  return group.flags.reduce((worst, flag) => Math.max(worst, flagRank(flag)), 0);
}

export function groupSeverity(group: Pick<GroupView, 'flags'>): Severity {
  return SEVERITY_OF_RANK[groupRank(group)]!;
}

/**
 * CPU in coarse bands (hot ≥ 50 %, busy ≥ 5 %, quiet below): groups whose readings wander by a few points
 * keep their places from one poll to the next instead of swapping rows under the user's pointer.
 */
export function cpuBand(group: Pick<GroupView, 'cpuPercent'>): number {
  const cpu = group.cpuPercent ?? 0;
  return cpu >= 50 ? 2 : cpu >= 5 ? 1 : 0;
}

/** Flagged first (worst flag first), then hot before busy before quiet, then the oldest: a stable order. */
export function compareGroups(a: GroupView, b: GroupView): number {
  return (
    groupRank(b) - groupRank(a) || cpuBand(b) - cpuBand(a) || a.startedAt - b.startedAt || a.pgid - b.pgid
  );
}
