import { describe, expect, it } from 'vitest';
import { markBackgroundTasks } from '../../main/core/analysis/background-tasks';
import { decideNotification, INITIAL_NOTIFICATION_STATE } from '../../main/electron/notification-policy';
import { isLiveBackgroundTask, runsOnPurpose } from '../../shared/background-task';
import type { GroupView, ProcessView, SessionRef } from '../../shared/model';

const NOW = 1_800_000_000_000;

function proc(overrides: Partial<ProcessView> = {}): ProcessView {
  return {
    pid: 501,
    ppid: 1,
    pgid: 500,
    sid: 500,
    uid: 1000,
    state: 'S',
    startedAt: NOW - 60_000,
    startKey: 1,
    cpuPercent: 0,
    rssBytes: 1_000_000,
    command: 'npm run dev',
    flags: ['orphan'],
    name: 'npm',
    argv: ['npm', 'run', 'dev'],
    tty: null,
    cpuSeconds: 1,
    orphanedAt: NOW - 30_000,
    role: 'background-task',
    ...overrides,
  };
}

const session = (agentAlive: boolean | null): SessionRef => ({
  id: 's-1',
  source: 'env',
  project: '/work/p',
  agentAlive,
});

function group(overrides: Partial<GroupView> = {}): GroupView {
  return {
    id: '500:501:1',
    pgid: 500,
    sid: 500,
    leaderPid: 500,
    leaderAlive: false,
    agent: { name: 'claude-code', pid: 100 },
    flags: ['orphan', 'leaderless'],
    processes: [proc()],
    cpuPercent: 0,
    rssBytes: 1_000_000,
    startedAt: NOW - 60_000,
    containsAgent: false,
    session: session(true),
    toolCall: {
      id: 'toolu_1',
      command: 'npm run dev',
      description: null,
      startedAt: NOW - 60_000,
      background: true,
    },
    kept: null,
    ...overrides,
  };
}

describe('background tasks', () => {
  it.each<[string, GroupView, boolean]>([
    ['started in the background, agent alive', group(), true],
    ['agent exited', group({ session: session(false) }), false],
    ['agent not known (never claimed on a guess)', group({ session: session(null) }), false],
    ['no session', group({ session: null }), false],
    ['a foreground call', group({ toolCall: { ...group().toolCall!, background: undefined } }), false],
    ['its session reported ended by a hook', group({ flags: ['orphan', 'session-ended'] }), false],
  ])('%s: live background task %s', (_, g, live) => {
    expect(isLiveBackgroundTask(g)).toBe(live);
    expect(runsOnPurpose(g)).toBe(live);
    expect(runsOnPurpose({ ...g, kept: { until: NOW + 1, since: NOW, note: null } })).toBe(true);
  });

  it('drops the left-behind flags of a live task and keeps what it does (runaway, memory, held pipe)', () => {
    const g = group({
      flags: ['orphan', 'leaderless', 'runaway', 'memory-hog', 'held-pipe'],
      processes: [proc({ flags: ['orphan', 'runaway'], role: 'tool-call' })],
    });
    const [marked] = markBackgroundTasks([g]);
    expect(marked!.flags).toEqual(['runaway', 'memory-hog', 'held-pipe']);
    expect(marked!.processes.map((p) => [p.role, p.flags, p.orphanedAt])).toEqual([
      ['background-task', ['runaway'], NOW - 30_000],
    ]);
    // The input (a view a cache may share) is left as it was.
    expect(g.flags).toEqual(['orphan', 'leaderless', 'runaway', 'memory-hog', 'held-pipe']);
    expect(g.processes[0]!.role).toBe('tool-call');
  });

  it('leaves an ended task flagged, its members tool calls again; returns unchanged groups as they are', () => {
    const ended = group({ session: session(false) });
    const [marked] = markBackgroundTasks([ended]);
    expect(marked!.flags).toEqual(['orphan', 'leaderless']);
    expect(marked!.processes.map((p) => p.role)).toEqual(['tool-call']);
    const plain = group({ toolCall: null, processes: [proc({ role: 'tool-call' })] });
    const clean = group({ flags: [], processes: [proc({ flags: [] })] });
    const out = markBackgroundTasks([plain, clean]);
    expect(out[0]).toBe(plain);
    expect(out[1]).toBe(clean);
  });

  it('a hot background task is still announced, as a runaway; a quiet one not at all', () => {
    const settings = { enabled: true, pausedUntil: null };
    const decide = (g: GroupView) =>
      decideNotification(
        { seq: 1, sampledAt: NOW, groups: markBackgroundTasks([g]) },
        INITIAL_NOTIFICATION_STATE,
        {
          now: NOW,
          settings,
        },
      ).notice;
    expect(decide(group())).toBeNull();
    const hot = decide(group({ flags: ['orphan', 'leaderless', 'runaway'], cpuPercent: 99 }));
    expect(hot?.title).toMatch(/runaway process/);
  });
});
