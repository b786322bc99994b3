import type { HookAgentStatus, HooksOverview } from '../../../shared/hooks';

/** How an agent's hook status reads in Settings. */
export function describeHookStatus(s: HookAgentStatus): string {
  switch (s.state) {
    case 'installed':
      return `Corral's hooks in ${s.path} (${Object.keys(s.events).join(', ')})`;
    case 'partial':
      return `some of Corral's hooks in ${s.path} (${Object.keys(s.events).join(', ')})`;
    case 'absent':
      return `no Corral hooks (${s.path})`;
    case 'invalid':
      return `cannot tell: ${s.error ?? 'the settings file could not be read'}`;
  }
}

/**
 * The agents the desktop offers hooks to: seen on this machine, and without all of Corral's hooks in
 * a file Corral can read. None while there is no corral command for the hooks to run.
 */
export function agentsToOffer(overview: HooksOverview): HookAgentStatus[] {
  if (overview.command === null) return [];
  return overview.agents.filter((a) => a.seen && (a.state === 'absent' || a.state === 'partial'));
}
