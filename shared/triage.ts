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

/** Flagged first (worst flag first), then the busiest CPU, then the most memory, then the oldest. */
export function compareGroups(a: GroupView, b: GroupView): number {
  return (
    groupRank(b) - groupRank(a) ||
    (b.cpuPercent ?? 0) - (a.cpuPercent ?? 0) ||
    b.rssBytes - a.rssBytes ||
    a.startedAt - b.startedAt
  );
}
