import type { ProcessRecord } from '../sampling/process-record';

/** Processes that adopt orphans: init systems, container inits, per-user service managers (subreapers). */
const REAPER_NAMES = new Set([
  'systemd',
  'init',
  'launchd',
  'tini',
  'dumb-init',
  'docker-init',
  'catatonit',
  's6-svscan',
  'runit',
]);

export function isKnownReaper(parent: Pick<ProcessRecord, 'pid' | 'name'> | undefined): boolean {
  if (!parent) return false;
  return parent.pid === 1 || REAPER_NAMES.has(parent.name);
}

export interface OrphanEvidence {
  attributed: boolean;
  isAgent: boolean;
  ppid: number;
  parent: Pick<ProcessRecord, 'pid' | 'name'> | undefined;
  parentAttributed: boolean;
  groupLeaderAlive: boolean;
  sessionLeaderAlive: boolean;
  /** The group's leader is the agent itself: a tool call that did not get a group of its own. */
  groupLeaderIsAgent: boolean;
  /** Reparenting Corral saw happen (watch mode): original parent gone, process adopted elsewhere. */
  observedReparent: boolean;
}

/**
 * An agent's process whose parent died and which was adopted. Observed reparenting is proof; in a
 * one-shot view the structure must show it: adopted by PID 1 or a known reaper, with the tool call's
 * group or session leader gone, or sitting in the agent's own group (a tool call that never got a group
 * of its own, whose wrapper is gone). The agent itself is never its own orphan.
 */
export function isOrphan(e: OrphanEvidence): boolean {
  if (!e.attributed || e.isAgent) return false;
  if (e.observedReparent) return true;
  const adopted = e.ppid === 1 || (isKnownReaper(e.parent) && !e.parentAttributed);
  return adopted && (!e.groupLeaderAlive || !e.sessionLeaderAlive || e.groupLeaderIsAgent);
}
