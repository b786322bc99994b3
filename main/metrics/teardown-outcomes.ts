import type { TeardownResult } from '../../shared/model';
import type { CorralService } from '../core/service';
import type { CorralMetrics } from './corral-metrics';
import type { TeardownOutcomeLabel } from './labels';

export function teardownOutcome(result: TeardownResult): TeardownOutcomeLabel {
  if (result.refused !== null) return 'refused';
  return result.clean ? 'clean' : 'partial';
}

/**
 * The same service, with every teardown it runs counted by outcome. Dry runs signal nothing and are
 * not counted; a request for a group that no longer exists throws before any teardown and is not one.
 */
export function countingTeardowns(service: CorralService, metrics: CorralMetrics): CorralService {
  return {
    snapshot: () => service.snapshot(),
    timeline: (groupId, sinceMs) => service.timeline(groupId, sinceMs),
    stopGroup: async (request, onProgress) => {
      const result = await service.stopGroup(request, onProgress);
      if (!result.dryRun) metrics.teardowns.inc({ outcome: teardownOutcome(result) });
      return result;
    },
    incidents: (limit) => service.incidents(limit),
    settings: () => service.settings(),
    updateSettings: (patch) => service.updateSettings(patch),
    onSnapshot: (listener) => service.onSnapshot(listener),
    onEvent: (listener) => service.onEvent(listener),
  };
}
