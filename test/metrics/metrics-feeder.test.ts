// The feeder over a real CorralService: a fake agent leaks a busy loop, the monitor flags it, and the
// metrics say so with bounded labels and CPU counted once per leaked group.
import type { MetricValueWithName } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../main/core/config/defaults';
import { createCorralService, type RunningService } from '../../main/core/create-service';
import { createCorralMetrics, type CorralMetrics } from '../../main/metrics/corral-metrics';
import { MetricsFeeder } from '../../main/metrics/metrics-feeder';
import { metricsSourceOf } from '../../main/metrics/metrics-source';
import { countingTeardowns } from '../../main/metrics/teardown-outcomes';
import { FakeAgent } from '../support/fake-agent';
import { waitFor } from '../support/wait-for';
import { tempDirForTest } from '../support/spawned-groups';

let running: RunningService | null = null;
let feeder: MetricsFeeder | null = null;
afterEach(async () => {
  feeder?.stop();
  await running?.stop();
  running = null;
  feeder = null;
});

function start(): { running: RunningService; metrics: CorralMetrics; feeder: MetricsFeeder } {
  running = createCorralService({
    config: {
      path: '(test)',
      settings: { ...DEFAULT_SETTINGS, pollIntervalMs: 200, runaway: { cpuPercent: 10, windowSeconds: 1 } },
      errors: [],
    },
    dataDir: tempDirForTest('corral-metrics-data-'),
    persistSettings: false,
    watchIntervalMs: 50,
    onError: () => {},
  });
  const metrics = createCorralMetrics();
  feeder = new MetricsFeeder(metricsSourceOf(running), metrics);
  return { running, metrics, feeder };
}

async function values(metrics: CorralMetrics, name: string): Promise<MetricValueWithName<string>[]> {
  const metric = metrics.registry.getSingleMetric(name);
  if (!metric) throw new Error(`no metric ${name}`);
  return (await metric.get()).values;
}

async function value(metrics: CorralMetrics, name: string, labels: Record<string, string> = {}) {
  const match = (await values(metrics, name)).find((v) =>
    Object.entries(labels).every(([k, l]) => v.labels[k] === l),
  );
  return match?.value;
}

describe('MetricsFeeder over a real CorralService', () => {
  it('reports a leaked busy loop: flagged groups, memory, incidents, and its CPU once per group', async () => {
    const { running, metrics, feeder } = start();
    const agent = await FakeAgent.start();
    const call = await agent.toolCall('until false; do :; done 2>/dev/null & sleep 0.3; echo placeholder');
    await call.exited();

    const groupId = await waitFor(
      'the leaked loop flagged orphan, leaderless and runaway',
      () => {
        const g = running.service.snapshot().groups.find((x) => x.pgid === call.pid);
        return g && ['orphan', 'leaderless', 'runaway'].every((f) => g.flags.includes(f as never)) && g.id;
      },
      { timeoutMs: 20_000 },
    );
    let counted = 0;
    await waitFor(
      'two seconds of leftover CPU',
      async () => {
        feeder.refresh();
        counted = (await value(metrics, 'corral_leftover_cpu_seconds_total', { agent: 'claude-code' })) ?? 0;
        return counted > 2;
      },
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    // One leak, one incident (its phases name every flag): its CPU is what the counter counts.
    const incidents = running.monitor.openIncidents().filter((i) => i.groupId === groupId);
    expect(incidents).toHaveLength(1);
    const incident = incidents[0]!;
    expect(incident.flags).toEqual(expect.arrayContaining(['orphan', 'leaderless', 'runaway']));
    expect(counted).toBeGreaterThanOrEqual(incident.cpuSeconds - 1e-6);
    // Between the last refresh and reading the incident the loop burned at most a little more.
    expect(counted).toBeLessThan(incident.cpuSeconds + 0.5);

    for (const flag of ['orphan', 'leaderless', 'runaway'])
      expect(await value(metrics, 'corral_flagged_groups', { agent: 'claude-code', flag })).toBe(1);
    expect(await value(metrics, 'corral_leftover_memory_bytes', { agent: 'claude-code' })).toBeGreaterThan(0);
    expect(await value(metrics, 'corral_agent_processes', { agent: 'claude-code' })).toBeGreaterThanOrEqual(
      2,
    );
    expect(await value(metrics, 'corral_processes_seen')).toBeGreaterThanOrEqual(3);
    expect(
      await value(metrics, 'corral_incidents_total', { agent: 'claude-code', kind: incident.kind }),
    ).toBe(1);
    expect(
      (await values(metrics, 'corral_poll_duration_seconds')).find((v) => v.metricName?.endsWith('_count'))
        ?.value,
    ).toBeGreaterThan(0);

    // Every label value comes from a closed set: no pid, command or path anywhere.
    const text = await metrics.registry.metrics();
    const labelValues = [...text.matchAll(/(\w+)="([^"]*)"/g)].filter(([, k]) =>
      ['agent', 'flag', 'kind', 'outcome'].includes(k!),
    );
    expect(labelValues.length).toBeGreaterThan(0);
    for (const [, , v] of labelValues) expect(v).toMatch(/^[a-z][a-z-]*$/);

    // Stopping the group through the counting service: one clean teardown; the agent's own group is refused.
    const service = countingTeardowns(running.service, metrics);
    const result = await service.stopGroup({ groupId, orphansOnly: false });
    expect(result.clean).toBe(true);
    const agentGroup = running.service.snapshot().groups.find((g) => g.containsAgent && g.pgid === agent.pid);
    expect(agentGroup).toBeDefined();
    const refused = await service.stopGroup({ groupId: agentGroup!.id, orphansOnly: false });
    expect(refused.refused).not.toBeNull();
    const dry = await service.stopGroup({ groupId: agentGroup!.id, orphansOnly: true, dryRun: true });
    expect(dry.dryRun).toBe(true);
    expect(await value(metrics, 'corral_teardowns_total', { outcome: 'clean' })).toBe(1);
    expect(await value(metrics, 'corral_teardowns_total', { outcome: 'refused' })).toBe(1);
    expect(await value(metrics, 'corral_teardowns_total', { outcome: 'partial' })).toBe(0);

    // Once the group is gone its flags read 0 (not a stale 1), and the counter never goes back.
    await waitFor(
      'the stopped group to leave the flagged gauges',
      async () => {
        feeder.refresh();
        return (
          (await value(metrics, 'corral_flagged_groups', { agent: 'claude-code', flag: 'orphan' })) === 0
        );
      },
      { timeoutMs: 15_000, intervalMs: 100 },
    );
    expect(
      await value(metrics, 'corral_leftover_cpu_seconds_total', { agent: 'claude-code' }),
    ).toBeGreaterThanOrEqual(counted);
    expect(await value(metrics, 'corral_leftover_memory_bytes', { agent: 'claude-code' })).toBe(0);
  });

  it('counts the errors the monitor caught and survived', async () => {
    const { running, metrics, feeder } = start();
    let thrown = 0;
    running.monitor.onTick(() => {
      thrown++;
      throw new Error('a listener that throws');
    });
    await waitFor('a tick listener to have thrown twice', () => thrown >= 2, { timeoutMs: 15_000 });
    feeder.refresh();
    const counted = (await value(metrics, 'corral_poll_errors_total')) ?? 0;
    expect(counted).toBeGreaterThanOrEqual(2);
    expect(counted).toBe(running.monitor.errors.count);
  });
});
