import type { Gauge } from 'prom-client';
import type { MonitorEvent } from '../../shared/model';
import { runsOnPurpose } from '../../shared/background-task';
import type { CorralMetrics } from './corral-metrics';
import { agentLabel, flagLabel, kindLabel, knownAgents } from './labels';
import { LeftoverCpu } from './leftover-cpu';
import type { MetricsSource } from './metrics-source';

/**
 * Sets a gauge to this round's values, and to 0 for label sets it had before but not now: a series
 * that drops to 0 reads 0 in Prometheus instead of going stale.
 */
function setGauge<L extends string>(
  gauge: Gauge<L>,
  seen: Map<string, Record<L, string>>,
  values: Map<string, { labels: Record<L, string>; value: number }>,
): void {
  for (const [key, labels] of seen) if (!values.has(key)) gauge.set(labels, 0);
  for (const [key, { labels, value }] of values) {
    seen.set(key, labels);
    gauge.set(labels, value);
  }
}

function add<L extends string>(
  into: Map<string, { labels: Record<L, string>; value: number }>,
  labels: Record<L, string>,
  value: number,
): void {
  const key = Object.values(labels).join('\0');
  const known = into.get(key);
  if (known) known.value += value;
  else into.set(key, { labels, value });
}

/**
 * Keeps the metrics current from the running core. Events (incidents opened and closed) are counted
 * as they come; everything else is read when Prometheus scrapes (`refresh()`), so between scrapes
 * the feeder costs the monitor nothing but a timer around each poll.
 */
export class MetricsFeeder {
  private readonly leftover: LeftoverCpu;
  private countedErrors = 0;
  private readonly seenAgents = new Map<string, Record<'agent', string>>();
  private readonly seenFlags = new Map<string, Record<'agent' | 'flag', string>>();
  private readonly seenMemory = new Map<string, Record<'agent', string>>();
  private readonly unsubscribe: Array<() => void>;

  constructor(
    private readonly source: MetricsSource,
    private readonly metrics: CorralMetrics,
  ) {
    this.leftover = new LeftoverCpu(source.openIncidents());
    this.countedErrors = source.errorCount();
    this.unsubscribe = [
      source.onEvent((event) => this.onEvent(event)),
      source.onPoll((seconds) => metrics.pollDuration.observe(seconds)),
    ];
  }

  private known(): Set<string> {
    return knownAgents(this.source.configuredAgents());
  }

  private onEvent(event: MonitorEvent): void {
    if (event.type === 'incident-opened') {
      this.metrics.incidents.inc({
        agent: agentLabel(event.agent?.name, this.known()),
        kind: kindLabel(event.detail?.kind),
      });
    } else if (event.type === 'incident-closed') {
      const id = event.detail?.incidentId;
      const cpuSeconds = event.detail?.cpuSeconds;
      if (typeof id === 'string' && typeof cpuSeconds === 'number')
        this.leftover.closed(id, event.groupId, event.agent?.name ?? null, cpuSeconds);
    }
  }

  /** Brings every scrape-time metric up to date. */
  refresh(): void {
    const known = this.known();
    const { metrics, source } = this;
    metrics.processesSeen.set(source.processCount());

    const processes = new Map<string, { labels: Record<'agent', string>; value: number }>();
    const flagged = new Map<string, { labels: Record<'agent' | 'flag', string>; value: number }>();
    const memory = new Map<string, { labels: Record<'agent', string>; value: number }>();
    const onPurpose = new Set<string>();
    for (const group of source.agentGroups()) {
      if (runsOnPurpose(group)) onPurpose.add(group.id);
      const agent = agentLabel(group.agent?.name, known);
      if (group.agent) add(processes, { agent }, group.processes.length);
      // A kept group (`corral keep`) or a live background task is running on purpose: not a leak.
      if (group.flags.length === 0 || onPurpose.has(group.id)) continue;
      add(memory, { agent }, group.rssBytes);
      for (const flag of group.flags) add(flagged, { agent, flag: flagLabel(flag) }, 1);
    }
    setGauge(metrics.agentProcesses, this.seenAgents, processes);
    setGauge(metrics.flaggedGroups, this.seenFlags, flagged);
    setGauge(metrics.leftoverMemoryBytes, this.seenMemory, memory);

    const leaks = source.openIncidents().filter((i) => !onPurpose.has(i.groupId));
    for (const burn of this.leftover.collect(leaks))
      metrics.leftoverCpuSeconds.inc({ agent: agentLabel(burn.agent, known) }, burn.seconds);

    const errors = source.errorCount();
    if (errors > this.countedErrors) metrics.pollErrors.inc(errors - this.countedErrors);
    this.countedErrors = errors;
  }

  stop(): void {
    for (const off of this.unsubscribe.splice(0)) off();
  }
}
