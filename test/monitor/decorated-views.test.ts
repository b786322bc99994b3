import { afterEach, describe, expect, it } from 'vitest';
import type { GroupView } from '../../shared/model';
import { DECORATED_VIEW_MAX_AGE_MS, GroupContext } from '../../main/core/provenance/group-context';
import { GroupViewCache } from '../../main/core/monitor/views/group-view-cache';
import { Monitor } from '../../main/core/monitor/monitor';
import { snapshotGroups } from '../../main/core/monitor/views/monitor-views';
import { LinuxSampler } from '../../main/core/sampling/linux/linux-sampler';
import { CLAUDE_MARKERS, FakeAgent } from '../support/fake-agent';
import { handPolledMatcher, handPolledSettings, sweepingMonitor } from '../support/sweeping-monitor';

let monitor: Monitor | null = null;
let sampler: LinuxSampler | null = null;
afterEach(() => {
  monitor?.stop();
  sampler?.close();
  monitor = null;
  sampler = null;
});

/** A monitor polled by hand, and the decoration the service gives its views, with a clock the test moves. */
function decoratedViews(): { poll: () => void; views: () => GroupView[]; advance: (ms: number) => void } {
  const made = sweepingMonitor();
  ({ monitor, sampler } = made);
  const m = made.monitor;
  const context = new GroupContext({
    processes: () => m.trackedProcesses(),
    agentViews: () => snapshotGroups(m),
    sampler,
    matcher: () => handPolledMatcher,
    settings: () => handPolledSettings,
    // No keeps and no ended sessions: the monitor's views need no data directory.
    files: { keeps: () => [], keepsChanged: () => {}, endedSessions: () => new Map() },
  });
  let now = 0;
  const cache = new GroupViewCache({ decoratedMaxAgeMs: DECORATED_VIEW_MAX_AGE_MS, now: () => now });
  return {
    poll: () => m.poll(),
    views: () => context.currentViews((decorate) => snapshotGroups(m, { all: true, cache, decorate })),
    advance: (ms) => {
      now += ms;
    },
  };
}

function groupOf(views: GroupView[], pgid: number): GroupView {
  const group = views.find((g) => g.pgid === pgid);
  if (!group) throw new Error(`no view of group ${pgid}`);
  return group;
}

describe("an agent's leftover group, decorated once and kept", () => {
  it('comes back with its provenance while nothing it is built from moved, and is decorated again after the bound or when an agent process comes', async () => {
    const agent = await FakeAgent.start();
    // Its output goes elsewhere: a sleep holding the call's pipe would be a held pipe, whose check moves.
    const call = await agent.toolCall('sleep 600 > /dev/null 2>&1 & echo started');
    await call.exited();
    const d = decoratedViews();
    // The first poll reads no CPU percentage yet (it takes two readings); the second does.
    d.poll();
    d.poll();
    const first = groupOf(d.views(), call.pid);
    expect(first.session?.id).toBe(CLAUDE_MARKERS.CLAUDE_CODE_SESSION_ID);
    expect(first.processes[0]?.cwd).toBeTruthy();

    d.poll();
    const kept = groupOf(d.views(), call.pid);
    // Not built again (its process list is the one kept), so not decorated again, and still decorated.
    expect(kept.processes).toBe(first.processes);
    expect(kept.session).toEqual(first.session);
    expect(kept.processes[0]?.cwd).toBe(first.processes[0]?.cwd);

    d.advance(DECORATED_VIEW_MAX_AGE_MS);
    d.poll();
    const aged = groupOf(d.views(), call.pid);
    expect(aged.processes).not.toBe(first.processes);
    expect(aged.session).toEqual(first.session);

    d.poll();
    expect(groupOf(d.views(), call.pid).processes).toBe(aged.processes);
    // Another process of the agent's appears: what the leftover's session and roles are found through moved.
    const next = await agent.toolCall('sleep 600 > /dev/null 2>&1; echo finished');
    d.poll();
    const views = d.views();
    expect(views.some((g) => g.pgid === next.pid)).toBe(true);
    const related = groupOf(views, call.pid);
    expect(related.processes).not.toBe(aged.processes);
    // And decorated again: the new call's wrapper carries the session and names its agent, so the
    // leftover's session is now known to have its agent alive, which nothing of its own showed.
    expect(first.session?.agentAlive).toBeNull();
    expect(related.session).toEqual({ ...first.session, agentAlive: true });
  });
});
