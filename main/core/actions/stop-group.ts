import type { StopGroupRequest } from '../../../shared/contract';
import type { GroupView, TeardownResult } from '../../../shared/model';
import type { ProcessSampler } from '../sampling/process-record';
import { findGroupById, teardownTarget } from '../snapshot/teardown-target';
import { teardown } from './teardown';

export interface StopGroupOptions {
  graceMs: number;
  sampler: ProcessSampler;
  onProgress?: (partial: TeardownResult) => void;
}

/** Why nothing was signalled before a teardown could even start; each front end words it its own way. */
export type StopRefusal = 'no-such-group' | 'pgid-reused';

export type StopOutcome =
  { refused: StopRefusal } | { refused: null; group: GroupView; result: TeardownResult };

/**
 * The one stop path every front end takes (CLI, IPC, serve, policies): finds the group the user
 * named among the groups just seen, refuses a PGID that now belongs to another group, and tears it
 * down with the request's mode.
 */
export async function stopGroup(
  request: StopGroupRequest,
  groups: readonly GroupView[],
  options: StopGroupOptions,
): Promise<StopOutcome> {
  const found = findGroupById(request.groupId, groups);
  if (found === null) return { refused: 'no-such-group' };
  if (found === 'reused') return { refused: 'pgid-reused' };
  const result = await teardown(teardownTarget(request.groupId, found, groups), {
    graceMs: options.graceMs,
    mode: request.orphansOnly ? 'orphans-only' : 'group',
    withEscaped: request.withEscaped ?? false,
    dryRun: request.dryRun ?? false,
    sampler: options.sampler,
    onProgress: options.onProgress,
  });
  return { refused: null, group: found, result };
}
