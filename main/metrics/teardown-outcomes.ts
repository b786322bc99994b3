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
    ...service,
    stopGroup: async (request, onProgress) => {
      const result = await service.stopGroup(request, onProgress);
      if (!result.dryRun) metrics.teardowns.inc({ outcome: teardownOutcome(result) });
      return result;
    },
    stopSession: async (request, onProgress) => {
      const stopped = await service.stopSession(request, onProgress);
      for (const { result } of stopped.outcomes)
        if (result && !result.dryRun) metrics.teardowns.inc({ outcome: teardownOutcome(result) });
      return stopped;
    },
  };
}
