import { cwdOf, portListeners } from '../core/sampling/hook-sampler';
import { loadEndedSessions } from '../core/storage/ended-sessions';
import { portConflictNote, portsNamedIn } from './port-conflict-note';
import { portHolderGroups } from './port-holder-groups';
import type { HookContext } from './run-hook';

/** How long the hook may look for a port's holders: the agent waits for it. */
const LOOK_BUDGET_MS = 2000;

/**
 * The hook's note on the ports a tool call's output says are in use, '' when it says none is (the
 * common case, which reads nothing). Linux only: elsewhere there is no /proc/net to ask, and a port
 * is never called free on a guess.
 */
export function portNote(payload: unknown, ctx: HookContext): string {
  if (process.platform !== 'linux') return '';
  const ports = portsNamedIn(payload);
  if (ports.length === 0) return '';
  const listeners = portListeners(ports, { deadline: ctx.now + LOOK_BUDGET_MS });
  const holding = [...listeners.values()].some((l) => l.pids.length > 0);
  const records = holding ? ctx.sampler.sampleSome(ctx.sampler.listPids()) : [];
  const groups = portHolderGroups(listeners, records, loadEndedSessions(ctx.dataDir), cwdOf);
  return portConflictNote(payload, listeners, groups, ctx.now);
}
