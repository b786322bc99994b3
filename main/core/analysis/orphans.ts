import type { ProcessRecord } from '../model/process-record';

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
  /** Reparenting Corral saw happen (watch mode): original parent gone, process adopted elsewhere. */
  observedReparent: boolean;
}

/**
 * An agent's process whose parent died and which was adopted. Observed reparenting is proof; in a
 * one-shot view (or when first seen) the structure must show it: adopted by PID 1 or a known reaper
 * that is not itself the agent's (an agent running as a container's PID 1 parents its tool calls
 * directly). Whether its tool call's leaders still live does not matter: a double fork (`(cmd &)`), a
 * `setsid` escape whose shell exited at once and a tool call whose agent was killed are all adopted,
 * and `ps` and `watch` must say the same of each. The agent itself is never its own orphan.
 */
export function isOrphan(e: OrphanEvidence): boolean {
  if (!e.attributed || e.isAgent) return false;
  if (e.observedReparent) return true;
  return (e.ppid === 1 || isKnownReaper(e.parent)) && !e.parentAttributed;
}
