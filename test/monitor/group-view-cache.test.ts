import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { GroupView } from '../../shared/model';
import { GroupViewCache } from '../../main/core/monitor/views/group-view-cache';
import { DECORATED_VIEW_MAX_AGE_MS } from '../../main/core/provenance/group-context';
import { Monitor } from '../../main/core/monitor/monitor';
import { snapshotGroups } from '../../main/core/monitor/views/monitor-views';
import { LinuxSampler } from '../../main/core/sampling/linux/linux-sampler';
import type { TrackedProcess } from '../../main/core/monitor/table/tracked';
import type { ProcessRecord } from '../../main/core/model/process-record';
import { rec } from '../core/record-fixture';
import { spawnGroup } from '../support/spawned-groups';
import { sweepingMonitor as sweepingMonitorOf } from '../support/sweeping-monitor';
import { waitFor } from '../support/wait-for';

let monitor: Monitor | null = null;
let sampler: LinuxSampler | null = null;
afterEach(() => {
  monitor?.stop();
  sampler?.close();
  monitor = null;
  sampler = null;
});

/** The shared sweeping monitor, stopped after each test. */
function sweepingMonitor(): Monitor {
  ({ monitor, sampler } = sweepingMonitorOf());
  return monitor;
}

function viewOf(m: Monitor, cache: GroupViewCache, pgid: number): GroupView {
  const view = snapshotGroups(m, { all: true, cache }).find((g) => g.pgid === pgid);
  if (!view) throw new Error(`no view of group ${pgid}`);
  return view;
}

describe('views of groups no agent owns, kept between polls', () => {
  it('come back as copies of the kept view while a sweep re-reads the same values', async () => {
    const group = spawnGroup('sleep 600 & echo $! > "$DIR/sleep"; wait');
    await group.ready('sleep');
    const m = sweepingMonitor();
    const cache = new GroupViewCache();
    // The first poll reads no CPU percentage yet (it takes two readings); the second does.
    m.poll();
    m.poll();
    const first = viewOf(m, cache, group.pgid);
    m.poll();
    const second = viewOf(m, cache, group.pgid);
    expect(second.processes).toBe(first.processes);
    // A copy: what decoration writes on it does not reach the kept view.
    expect(second).not.toBe(first);
    second.session = null;
    expect(viewOf(m, cache, group.pgid)).not.toHaveProperty('session');
  });

  it('are built again when a member exits, and without it', async () => {
    const group = spawnGroup('sleep 600 & echo $! > "$DIR/a"; sleep 600 & echo $! > "$DIR/b"; wait');
    const gone = Number(await group.ready('b'));
    const kept = Number(await group.ready('a'));
    const m = sweepingMonitor();
    const cache = new GroupViewCache();
    m.poll();
    const before = viewOf(m, cache, group.pgid);
    expect(before.processes.map((p) => p.pid)).toEqual(expect.arrayContaining([kept, gone]));

    process.kill(gone, 'SIGKILL');
    // bash's `wait` reaps it: once /proc no longer shows it, the next sweep cannot read it.
    await waitFor(`pid ${gone} reaped`, () => !existsSync(`/proc/${gone}`) || undefined);
    m.poll();
    const after = viewOf(m, cache, group.pgid);
    expect(after.processes).not.toBe(before.processes);
    expect(after.processes.map((p) => p.pid)).toContain(kept);
    expect(after.processes.map((p) => p.pid)).not.toContain(gone);
  });
});

describe("a kept view's members compared by their records' values", () => {
  // The cache's own decision, on records made by hand: a new record object with the same values keeps
  // the view; any value that moved builds it again.
  const noGroups = { liveGroup: () => undefined, groupFlags: () => [] };
  const member = (record: ProcessRecord, attribution: unknown = null) =>
    ({
      record,
      attribution,
      cpuPercent: 0,
      orphanedAt: null,
      runaway: { active: false },
      heldPipe: null,
      lineage: null,
    }) as unknown as TrackedProcess;
  const view = { pgid: 42, processes: [] } as unknown as GroupView;

  it('keeps the view for a record read again with the same values, not for one whose values moved', () => {
    const cache = new GroupViewCache();
    const p = member(rec({ pid: 42 }));
    expect(cache.reuse(noGroups, 42, [p])).toBeNull();
    cache.keep([view]);

    p.record = { ...p.record };
    expect(cache.reuse(noGroups, 42, [p])).toEqual(view);
    cache.keep([]);

    p.record = { ...p.record, rssBytes: (p.record.rssBytes ?? 0) + 4096 };
    expect(cache.reuse(noGroups, 42, [p])).toBeNull();
  });

  it("keeps an agent's group while no agent's process is related otherwise, and within the bound", () => {
    let now = 0;
    const cache = new GroupViewCache({ decoratedMaxAgeMs: DECORATED_VIEW_MAX_AGE_MS, now: () => now });
    const attribution = { agent: 'claude-code', isAgent: false, agentPid: 7 };
    const agent = member(rec({ pid: 7 }), { ...attribution, isAgent: true });
    const p = member(rec({ pid: 42, ppid: 7 }), attribution);
    const look = (): GroupView | null => {
      cache.relate([agent, p]);
      return cache.reuse(noGroups, 42, [p]);
    };
    expect(look()).toBeNull();
    cache.keep([view]);
    expect(look()).toEqual(view);
    cache.keep([]);

    // The agent's own record moves (its CPU): nothing the leftover is related through.
    agent.record = { ...agent.record, cpuTimeMs: 500 };
    expect(look()).toEqual(view);
    cache.keep([]);

    // The leftover is reparented away from the agent: its own record moved, so it is built again.
    p.record = { ...p.record, ppid: 1 };
    expect(look()).toBeNull();
    cache.keep([view]);
    expect(look()).toEqual(view);
    cache.keep([]);

    // The agent execs: every agent's group is built again, this one too though its own record stands.
    agent.record = { ...agent.record, argv: ['claude', '--resume'] };
    expect(look()).toBeNull();
    cache.keep([view]);

    now += DECORATED_VIEW_MAX_AGE_MS - 1;
    expect(look()).toEqual(view);
    cache.keep([]);
    now += 1;
    expect(look()).toBeNull();
  });
});
