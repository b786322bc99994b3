import type { RunningService } from '../core/create-service';
import { createCorralMetrics, type CorralMetrics } from './corral-metrics';
import { metricsHandler, type MetricsHandler } from './metrics-endpoint';
import { MetricsFeeder } from './metrics-feeder';
import { metricsSourceOf } from './metrics-source';

export interface ExposedMetrics {
  metrics: CorralMetrics;
  handler: MetricsHandler;
  stop(): void;
}

/** Metrics of a running core, fed from it, and the /metrics handler that serves them. */
export function exposeMetrics(running: RunningService, token: string | null): ExposedMetrics {
  const metrics = createCorralMetrics();
  const feeder = new MetricsFeeder(metricsSourceOf(running), metrics);
  return {
    metrics,
    handler: metricsHandler({ registry: metrics.registry, refresh: () => feeder.refresh(), token }),
    stop: () => feeder.stop(),
  };
}
