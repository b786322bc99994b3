import type { HookAgentName, HookAgentStatus, HooksOverview } from '../../../shared/hooks';

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

/** A short verdict for the badge beside the agent's name. */
export function hookBadge(s: HookAgentStatus): { text: string; tone: 'ok' | 'todo' | 'problem' } {
  if (s.state === 'invalid') return { text: 'cannot read its settings', tone: 'problem' };
  if (s.missingCommand) return { text: 'hooks broken', tone: 'problem' };
  if (s.state === 'installed') return { text: 'set up', tone: 'ok' };
  if (s.state === 'partial') return { text: 'partly set up', tone: 'todo' };
  return { text: 'not set up', tone: 'todo' };
}

/** Where Corral knows the agent from, in a few words. */
export function agentPresence(s: HookAgentStatus): string {
  if (s.seen) return 'seen running on this machine';
  if (s.installed) return 'installed on this machine';
  return 'not found on this machine';
}

/** The hooks are missing, partial, or run a program that is gone: installing would fix them. */
export const needsHooks = (s: HookAgentStatus): boolean =>
  s.state === 'absent' || s.state === 'partial' || (s.state === 'installed' && Boolean(s.missingCommand));

/**
 * The agents the desktop offers hooks to: seen on this machine, and without all of Corral's hooks in
 * a file Corral can read. None while there is no corral command for the hooks to run.
 */
export function agentsToOffer(overview: HooksOverview): HookAgentStatus[] {
  if (overview.command === null) return [];
  return overview.agents.filter((a) => a.seen && (a.state === 'absent' || a.state === 'partial'));
}

/** The terminal command that does what Settings' button does, with the CLI as this machine runs it. */
export function hooksCliCommand(
  command: string | null,
  action: 'install' | 'uninstall',
  agent: HookAgentName,
): string {
  return `${command ?? 'corral'} hooks ${action} --agent ${agent}`;
}
