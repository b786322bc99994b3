import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { describeEvent } from '../../main/cli/event-words';
import { openIncidentCount } from '../../main/electron/flagged-groups';
import {
  decideNotification,
  INITIAL_NOTIFICATION_STATE,
  type NotificationState,
} from '../../main/electron/notification-policy';
import { createCorralMetrics } from '../../main/metrics/corral-metrics';
import { MetricsFeeder } from '../../main/metrics/metrics-feeder';
import { metricsSourceOf } from '../../main/metrics/metrics-source';
import type { GroupView, PolicyRule, Snapshot } from '../../shared/model';
import { FakeAgent } from '../support/fake-agent';
import { isAlive, readProcStat } from '../support/proc';
import { startHarness, type Harness } from '../support/service-harness';
import { removeDir } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';

const SESSION = '7a1c2d3e-4444-4b5c-8d9e-dddddddddddd';
const markers = {
  CLAUDECODE: '1',
  CLAUDE_CODE_ENTRYPOINT: 'cli',
  CLAUDE_CODE_SESSION_ID: SESSION,
  AI_AGENT: 'claude-code_2-1-332_agent',
};
const STOP_ORPHANS: PolicyRule = {
  name: 'stop-orphans',
  match: { flags: ['orphan'], agents: ['claude-code'] },
  action: 'stop',
  graceMs: 300,
};
const NOTIFY = { enabled: true, pausedUntil: null };

let harness: Harness | null = null;
let config: string | null = null;
afterEach(async () => {
  await harness?.stop();
  harness = null;
  if (config) removeDir(config);
  config = null;
});

/** The desktop's notification decision, with no quiet window between two announcements. */
const decide = (snapshot: Snapshot, state: NotificationState) =>
  decideNotification(snapshot, state, { now: Date.now(), settings: NOTIFY, quietWindowMs: 0 });

const viewOf = (snapshot: Snapshot, pgid: number): GroupView | undefined =>
  snapshot.groups.find((g) => g.pgid === pgid);

describe('a background task in the running core', () => {
  it('is no leftover while its agent lives (no orphan flag, notification, policy stop or metric); once the agent is gone it is one', async () => {
    config = realpathSync(mkdtempSync(join(tmpdir(), 'corral-claude-config-')));
    const agent = await FakeAgent.start({
      markers,
      env: { CLAUDE_CONFIG_DIR: config },
      sessionFile: true,
      transcript: true,
    });
    // Both calls leave a sleep behind (the wrapper exits, the sleep is reparented); only the first was
    // started in the background on purpose. The second is the control: the policy stops it.
    const background = await agent.toolCall('sleep 600 >/dev/null 2>&1 & echo started', {
      description: 'Watch the tests',
      background: true,
    });
    const foreground = await agent.toolCall('sleep 601 >/dev/null 2>&1 & echo started');
    await background.exited();
    await foreground.exited();
    await waitFor('both wrappers gone', () => !readProcStat(background.pid) && !readProcStat(foreground.pid));

    // Observe mode: a match is recorded (policy-matched) and nothing is stopped, so the task outlives
    // the agent for the checks below.
    harness = startHarness({ policyMode: 'observe', policies: [STOP_ORPHANS] });
    const h = harness;
    // The policy runs and matches an orphan of this agent: it would have matched the background task too.
    await h.next('policy-matched', (e) => e.pgid === foreground.pid);
    // The reparenting is told as it happened, with what makes it no leftover yet.
    const orphaned = await h.next('orphaned', (e) => e.pgid === background.pid);
    let polls = 0;
    const off = h.running.monitor.onPoll(() => polls++);
    await waitFor('three more polls with the policies', () => polls >= 3);
    off();
    const decorated = h.events.find(
      (e) => e.pgid === background.pid && e.type === 'orphaned' && e.toolCall !== undefined,
    );
    expect(decorated ?? orphaned).toMatchObject({
      toolCall: { background: true, description: 'Watch the tests' },
      session: { id: SESSION, agentAlive: true },
    });
    expect(describeEvent(decorated ?? orphaned)).toMatch(/background task its agent started on purpose/);

    const sleeper = (g: GroupView): number => g.processes.find((p) => p.command.startsWith('sleep'))!.pid;
    const snapshot = h.running.service.snapshot();
    const view = viewOf(snapshot, background.pid)!;
    expect(isAlive(sleeper(view))).toBe(true);
    expect(view.session).toMatchObject({ id: SESSION, agentAlive: true });
    expect(view.flags).toEqual([]);
    expect(view.processes.map((p) => [p.role, p.flags])).toEqual([['background-task', []]]);
    // The fact stays: the process was reparented.
    expect(view.processes[0]!.orphanedAt).toBeGreaterThan(0);
    expect(h.events.filter((e) => e.pgid === background.pid && e.type === 'policy-matched')).toEqual([]);
    expect(h.events.filter((e) => e.pgid === background.pid && e.type === 'signal-sent')).toEqual([]);
    // The desktop announces the foreground call's leftover alone, and counts it alone.
    const fg = viewOf(snapshot, foreground.pid)!;
    expect(fg.flags).toContain('orphan');
    const first = decide(snapshot, INITIAL_NOTIFICATION_STATE);
    expect(first.notice?.groupId).toBe(fg.id);
    expect(openIncidentCount(snapshot)).toBe(1);
    // The tray's snapshot (no window: nothing read, the session recalled) says the same.
    const tray = h.running.agentsSnapshot();
    expect(viewOf(tray, background.pid)?.flags).toEqual([]);
    expect(decide(tray, INITIAL_NOTIFICATION_STATE).notice?.groupId).toBe(fg.id);

    const metrics = createCorralMetrics();
    const feeder = new MetricsFeeder(metricsSourceOf(h.running), metrics);
    const orphans = async (): Promise<number> => {
      feeder.refresh();
      const values = (await metrics.registry.getSingleMetric('corral_flagged_groups')!.get()).values;
      return values.find((v) => v.labels.agent === 'claude-code' && v.labels.flag === 'orphan')?.value ?? 0;
    };
    expect(await orphans()).toBe(1);

    // The session ends: the agent is gone. The task is now a leftover like any other.
    process.kill(agent.pid, 'SIGKILL');
    await waitFor('the agent gone', () => readProcStat(agent.pid) === null);
    const later = await waitFor('the background task flagged orphan', () => {
      const s = h.running.service.snapshot();
      return viewOf(s, background.pid)?.flags.includes('orphan') ? s : undefined;
    });
    const after = viewOf(later, background.pid)!;
    expect(after.session?.agentAlive).toBe(false);
    expect(after.processes.map((p) => [p.role, p.flags])).toEqual([['tool-call', ['orphan']]]);
    // News now, after the foreground leftover was announced.
    const notice = decide(later, first.state).notice;
    expect(notice).toMatchObject({ groupId: after.id, title: expect.stringMatching(/left behind/) });
    const trayAfter = await waitFor('the tray snapshot flags it', () => {
      const s = h.running.agentsSnapshot();
      return viewOf(s, background.pid)?.flags.includes('orphan') ? s : undefined;
    });
    expect(decide(trayAfter, first.state).notice?.groupId).toBe(after.id);
    await waitFor('counted as a leftover', async () => (await orphans()) === 2);
    feeder.stop();
    // And the policy, no longer held back, matches it.
    await h.next('policy-matched', (e) => e.pgid === background.pid);
  });
});
