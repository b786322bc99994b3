import type { StopGroupRequest } from '../../../shared/contract';
import type { GroupView, TeardownResult } from '../../../shared/model';
import type { ProcessSampler } from '../sampling/process-sampler';
import { teardownTarget } from './teardown-target';
import { resolveGroupId, type GroupResolution, type KnownMember } from './resolve-group-id';
import { teardown } from './teardown';

export interface StopGroupOptions {
  graceMs: number;
  sampler: ProcessSampler;
  /**
   * Processes Corral saw in the named group (the monitor's memory of it, or the incident history):
   * they prove an id whose anchor has since exited.
   */
  remembered?: readonly KnownMember[];
  /** Called once the group is proven and before its first signal (not on a dry run). */
  beforeSignal?: (group: GroupView) => void;
  onProgress?: (partial: TeardownResult) => void;
}

/** Why nothing was signalled: the group is already gone, its PGID was reused, or it cannot be proven. */
export type StopRefusal = Exclude<GroupResolution, { kind: 'found' }>;

export type StopOutcome =
  { refused: StopRefusal } | { refused: null; group: GroupView; result: TeardownResult };

/**
 * The one stop path every front end takes (CLI, IPC, serve, policies): proves that the id the user
 * named still denotes a live group (resolve-group-id.ts), and tears it down with the request's mode.
 */
export async function stopGroup(
  request: StopGroupRequest,
  groups: readonly GroupView[],
  options: StopGroupOptions,
): Promise<StopOutcome> {
  const resolved = resolveGroupId(request.groupId, groups, options.remembered);
  if (resolved.kind !== 'found') return { refused: resolved };
  const group = resolved.group;
  if (!request.dryRun) options.beforeSignal?.(group);
  const result = await teardown(teardownTarget(request.groupId, group, groups), {
    graceMs: options.graceMs,
    mode: request.orphansOnly ? 'orphans-only' : 'group',
    withEscaped: request.withEscaped ?? false,
    dryRun: request.dryRun ?? false,
    sampler: options.sampler,
    onProgress: options.onProgress,
  });
  return { refused: null, group, result };
}
