import type { GroupView, Snapshot } from '../../shared/model';
import { shortCommand } from './format';

/** What the tray title counts and notifications announce: groups left behind, burning CPU, or forking without end. */
export type IncidentFlag = 'orphan' | 'runaway' | 'spawn-storm';
export const INCIDENT_FLAGS: readonly IncidentFlag[] = ['orphan', 'runaway', 'spawn-storm'];

export function isFlagged(group: GroupView): boolean {
  return group.flags.length > 0;
}

/** A kept group (`corral keep`) is neither counted nor announced: the user wants it running. */
export function incidentFlags(group: GroupView): IncidentFlag[] {
  if (group.kept) return [];
  return INCIDENT_FLAGS.filter((f) => group.flags.includes(f));
}

/** Open orphan, runaway and spawn-storm incidents, one per group and kind. */
export function openIncidentCount(snapshot: Snapshot): number {
  return snapshot.groups.reduce((n, g) => n + incidentFlags(g).length, 0);
}

export function agentLabel(group: GroupView): string {
  return group.agent?.name ?? 'unknown agent';
}

/** The command that names a group: the busiest member, else the leader, else the PGID. */
export function groupCommand(group: GroupView): string {
  const busiest = [...group.processes].sort((a, b) => (b.cpuPercent ?? -1) - (a.cpuPercent ?? -1))[0];
  return busiest ? shortCommand(busiest.command) : `group ${group.pgid}`;
}

/** When the group was left behind: the earliest reparenting Corral saw, else its start. */
export function orphanedSince(group: GroupView): number {
  const seen = group.processes.map((p) => p.orphanedAt).filter((t): t is number => t !== undefined);
  return seen.length > 0 ? Math.min(...seen) : group.startedAt;
}
