import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { TEARDOWN_OUTCOMES } from './labels';

/**
 * prom-client's default event-loop monitor samples every 10 ms: 100 wake-ups a second, which cost
 * about 1 % of a core here (measured: an idle Node process 0.13 %, with the 10 ms monitor 1.15 %, with
 * 1 s 0.18 %), twice the monitor's whole budget. Once a second instead; Node's histogram includes the
 * sampling interval, so `nodejs_eventloop_lag_*` read about 1 s plus the lag.
 */
const EVENT_LOOP_SAMPLE_MS = 1000;

/** Every metric Corral exports, in a registry of its own (never prom-client's global one). */
export function createCorralMetrics() {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  const metrics = {
    registry,
    agentProcesses: new Gauge({
      name: 'corral_agent_processes',
      help: 'Live processes attributed to each agent.',
      labelNames: ['agent'] as const,
      registers,
    }),
    flaggedGroups: new Gauge({
      name: 'corral_flagged_groups',
      help: 'Live process groups carrying each flag (a group with two flags counts under both).',
      labelNames: ['agent', 'flag'] as const,
      registers,
    }),
    leftoverCpuSeconds: new Counter({
      name: 'corral_leftover_cpu_seconds_total',
      help: 'CPU time burned by flagged groups while flagged, counted once per group whatever its flags.',
      labelNames: ['agent'] as const,
      registers,
    }),
    leftoverMemoryBytes: new Gauge({
      name: 'corral_leftover_memory_bytes',
      help: 'Resident memory of the live flagged groups.',
      labelNames: ['agent'] as const,
      registers,
    }),
    incidents: new Counter({
      name: 'corral_incidents_total',
      help: 'Incidents opened since Corral started.',
      labelNames: ['agent', 'kind'] as const,
      registers,
    }),
    teardowns: new Counter({
      name: 'corral_teardowns_total',
      help: 'Group teardowns this Corral process ran (dry runs excluded), by outcome.',
      labelNames: ['outcome'] as const,
      registers,
    }),
    pollDuration: new Histogram({
      name: 'corral_poll_duration_seconds',
      help: "Duration of the monitor's polls of the process table.",
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
      registers,
    }),
    pollErrors: new Counter({
      name: 'corral_poll_errors_total',
      help: 'Errors the monitor caught and survived (a sampler, watch, listener or storage step that threw).',
      registers,
    }),
    processesSeen: new Gauge({
      name: 'corral_processes_seen',
      help: 'Live processes the monitor tracks (the whole table after each sweep, plus newcomers).',
      registers,
    }),
  };
  // Outcomes are few and known: present from the start, so a dashboard shows 0 rather than nothing.
  for (const outcome of TEARDOWN_OUTCOMES) metrics.teardowns.inc({ outcome }, 0);
  metrics.pollErrors.inc(0);
  return metrics;
}

export type CorralMetrics = ReturnType<typeof createCorralMetrics>;

/** Names of the metrics Corral itself defines (the default process metrics come on top). */
export const CORRAL_METRIC_NAMES = [
  'corral_agent_processes',
  'corral_flagged_groups',
  'corral_leftover_cpu_seconds_total',
  'corral_leftover_memory_bytes',
  'corral_incidents_total',
  'corral_teardowns_total',
  'corral_poll_duration_seconds',
  'corral_poll_errors_total',
  'corral_processes_seen',
] as const;
