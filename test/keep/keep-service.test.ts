import { afterEach, describe, expect, it } from 'vitest';
import { decideNotification, INITIAL_NOTIFICATION_STATE } from '../../main/electron/notification-policy';
import { openIncidentCount } from '../../main/electron/flagged-groups';
import { addKeep, loadKeeps } from '../../main/core/storage/keeps';
import { createCorralMetrics } from '../../main/metrics/corral-metrics';
import { MetricsFeeder } from '../../main/metrics/metrics-feeder';
import { metricsSourceOf } from '../../main/metrics/metrics-source';
import type { GroupView, PolicyRule } from '../../shared/model';
import { FakeAgent } from '../support/fake-agent';
import { isAlive } from '../support/proc';
import { runCli } from '../support/run-cli';
import { startHarness, type Harness } from '../support/service-harness';
import { waitFor } from '../support/wait-for';
import { tempDirForTest } from '../support/spawned-groups';

let harness: Harness | null = null;
afterEach(async () => {
  await harness?.stop();
  harness = null;
});

const LOOP = 'until false; do sleep 0.2; done 2>/dev/null & sleep 0.3; echo placeholder';
const STOP_ORPHANS: PolicyRule = {
  name: 'stop-orphans',
  match: { flags: ['orphan'], agents: ['claude-code'] },
  action: 'stop',
  graceMs: 300,
};

/** A tool call of a fake Claude Code that leaves a loop behind; its group as a one-shot `ps` sees it. */
async function leftover(agent: FakeAgent, dataDir: string): Promise<GroupView> {
  const call = await agent.toolCall(LOOP);
  await call.exited();
  return waitFor('the leftover seen orphaned by corral ps', async () => {
    const ps = await runCli(['ps', '--json'], {
      env: { CORRAL_DATA_DIR: dataDir, CORRAL_CONFIG: '/nonexistent' },
    });
    const groups = (JSON.parse(ps.stdout) as { groups: GroupView[] }).groups;
    return groups.find((g) => g.pgid === call.pid && g.flags.includes('orphan'));
  });
}

const loopPid = (g: GroupView): number => g.processes.find((p) => !p.command.startsWith('sleep'))!.pid;

describe('a kept group in the running core', () => {
  it('keeps its flags but raises no notification, matches no policy stop, while an expired keep is no keep', async () => {
    const dataDir = tempDirForTest('corral-keep-');
    const agent = await FakeAgent.start();
    const kept = await leftover(agent, dataDir);
    const expired = await leftover(agent, dataDir);

    // The user keeps one through the CLI; the other was kept once, and its keep has run out.
    const keep = await runCli(['keep', kept.id, '--for', '2h', '--note', 'dev server'], {
      env: { CORRAL_DATA_DIR: dataDir, CORRAL_CONFIG: '/nonexistent' },
    });
    expect(keep.stderr).toBe('');
    expect(keep.code).toBe(0);
    const past = Date.now() - 60_000;
    addKeep(dataDir, expired, { until: past, note: 'yesterday', now: past - 3_600_000 });
    expect(
      loadKeeps(dataDir)
        .map((k) => k.groupId)
        .sort(),
    ).toEqual([kept.id, expired.id].sort());

    // A Corral started afterwards, enforcing a policy that stops every orphan of Claude Code.
    harness = startHarness({ policyMode: 'enforce', policies: [STOP_ORPHANS] }, dataDir);
    const h = harness;
    // The group whose keep expired is stopped: proof the policy runs and would have matched.
    await h.next('stopped-by-policy', (e) => e.pgid === expired.pgid);
    let polls = 0;
    const off = h.running.monitor.onPoll(() => polls++);
    await waitFor('three more polls with the policies', () => polls >= 3);
    off();

    expect(isAlive(loopPid(kept))).toBe(true);
    expect(h.events.filter((e) => e.pgid === kept.pgid && e.type === 'policy-matched')).toEqual([]);
    expect(h.events.filter((e) => e.pgid === kept.pgid && e.type === 'signal-sent')).toEqual([]);

    const snapshot = h.running.service.snapshot();
    const view = snapshot.groups.find((g) => g.pgid === kept.pgid)!;
    expect(view.flags).toContain('orphan');
    expect(view.kept).toMatchObject({ note: 'dev server' });
    expect(view.kept!.until - snapshot.sampledAt).toBeGreaterThan(2 * 3_600_000 - 120_000);
    expect(view.kept!.until - snapshot.sampledAt).toBeLessThanOrEqual(2 * 3_600_000);

    // The desktop's notification decision and tray count pass over it.
    const decision = decideNotification(snapshot, INITIAL_NOTIFICATION_STATE, {
      now: Date.now(),
      settings: { enabled: true, pausedUntil: null },
    });
    expect(decision.notice).toBeNull();
    expect(openIncidentCount(snapshot)).toBe(0);
    // Unkept, the same group is news: the decision above could have gone the other way.
    const unkept = await h.running.service.unkeepGroup(kept.id);
    expect(unkept.kept).toBeNull();
    const after = h.running.service.snapshot();
    expect(after.groups.find((g) => g.pgid === kept.pgid)?.kept).toBeNull();
    const now = decideNotification(after, INITIAL_NOTIFICATION_STATE, {
      now: Date.now(),
      settings: { enabled: true, pausedUntil: null },
    });
    expect(now.notice?.groupId).toBe(view.id);
    // And the policy, no longer held back, stops it.
    await h.next('stopped-by-policy', (e) => e.pgid === kept.pgid);
  });

  it('a keep asked of the service (the UI) is in the next snapshot and survives a restart', async () => {
    const dataDir = tempDirForTest('corral-keep-');
    const agent = await FakeAgent.start();
    const group = await leftover(agent, dataDir);
    harness = startHarness({}, dataDir);
    const h = harness;
    await waitFor('the leftover in the service', () =>
      h.running.service.snapshot().groups.find((g) => g.id === group.id),
    );
    // Counted as a leak in the metrics until it is kept.
    const metrics = createCorralMetrics();
    const feeder = new MetricsFeeder(metricsSourceOf(h.running), metrics);
    const orphans = async (): Promise<number> => {
      feeder.refresh();
      const values = (await metrics.registry.getSingleMetric('corral_flagged_groups')!.get()).values;
      return values.find((v) => v.labels.agent === 'claude-code' && v.labels.flag === 'orphan')?.value ?? 0;
    };
    await waitFor('the leftover counted as flagged', async () => (await orphans()) === 1);
    const result = await h.running.service.keepGroup({ groupId: group.id, forMs: 30 * 60_000 });
    expect(result.kept?.until).toBeGreaterThan(Date.now() + 29 * 60_000);
    expect(h.running.service.snapshot().groups.find((g) => g.id === group.id)?.kept).toEqual(result.kept);
    expect(await orphans()).toBe(0);
    feeder.stop();
    await expect(h.running.service.keepGroup({ groupId: '99999:99999:1' })).rejects.toThrow(/not running/);
    await h.stop();

    harness = startHarness({}, dataDir);
    const again = harness;
    const view = await waitFor('the leftover in the restarted service', () =>
      again.running.service.snapshot().groups.find((g) => g.pgid === group.pgid),
    );
    expect(view.kept).toEqual(result.kept);
  });
});
