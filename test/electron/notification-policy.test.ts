import { describe, expect, it } from 'vitest';
import {
  decideNotification,
  INITIAL_NOTIFICATION_STATE,
  QUIET_WINDOW_MS,
  type NotificationState,
} from '../../main/electron/notification-policy';
import type { GroupView, Settings, Snapshot } from '../../shared/model';
import { makeGroup } from '../transport/fake-corral-service';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const MIN = 60_000;
const on: Settings['notifications'] = { enabled: true, pausedUntil: null };

function group(id: number, overrides: Partial<GroupView> = {}): GroupView {
  return makeGroup({
    id: `${id}:${id}:1`,
    pgid: id,
    startedAt: NOW - 90 * MIN,
    cpuPercent: 50,
    processes: [
      {
        pid: id,
        ppid: 1,
        pgid: id,
        sid: id,
        uid: 0,
        state: 'R',
        startedAt: NOW - 90 * MIN,
        cpuPercent: 50,
        rssBytes: 0,
        command: `yes ${id}`,
        flags: ['orphan'],
        name: 'yes',
        argv: ['yes'],
        tty: null,
        cpuSeconds: 1,
        startKey: 1,
        orphanedAt: NOW - 3 * MIN,
      },
    ],
    ...overrides,
  });
}

const snap = (groups: GroupView[]): Snapshot => ({ seq: 1, sampledAt: NOW, groups });

/** Feeds snapshots in order, returning every notice shown. */
function run(steps: Array<{ at: number; groups: GroupView[]; settings?: Settings['notifications'] }>) {
  let state: NotificationState = INITIAL_NOTIFICATION_STATE;
  const shown = [];
  for (const step of steps) {
    const decision = decideNotification(snap(step.groups), state, {
      now: step.at,
      settings: step.settings ?? on,
    });
    state = decision.state;
    if (decision.notice) shown.push(decision.notice);
  }
  return shown;
}

describe('decideNotification', () => {
  it('announces a single orphan naming the agent, what and how long, with a Stop action', () => {
    const [notice, ...rest] = run([{ at: NOW, groups: [group(5)] }]);
    expect(rest).toEqual([]);
    expect(notice).toEqual({
      title: 'claude-code: process left behind',
      body: 'yes 5 kept running after its tool call ended, 3m00s ago (50% CPU).',
      groupId: '5:5:1',
      stop: { groupId: '5:5:1', orphansOnly: false },
    });
  });

  it('announces a runaway with its CPU and running time', () => {
    const [notice] = run([
      {
        at: NOW,
        groups: [group(6, { flags: ['runaway'], cpuPercent: 99, agent: { name: 'codex', pid: 1 } })],
      },
    ]);
    expect(notice!.title).toBe('codex: runaway process');
    expect(notice!.body).toBe('yes 6 has been using 99% CPU; running for 1h30m.');
  });

  it('announces a spawn storm with its rate and the command it repeats, in the CLI and UI words', () => {
    const spawnStorm = {
      reason: 'birth-rate' as const,
      birthsPerMinute: 14_550,
      repeatsPerMinute: 14_000,
      peakBirthsPerMinute: 14_550,
      members: 2,
      peakMembers: 3,
      births: 900,
      unseenBirths: 40,
      repeated: [{ command: '/bin/true', count: 880 }],
    };
    const [notice] = run([
      {
        at: NOW,
        groups: [group(7, { flags: ['spawn-storm'], agent: { name: 'codex', pid: 1 }, spawnStorm })],
      },
    ]);
    expect(notice!.title).toBe('codex: processes started without end');
    expect(notice!.body).toBe('yes 7 starts 14,550 processes a minute, mostly /bin/true; running for 1h30m.');
    expect(notice!.stop).toEqual({ groupId: '7:7:1', orphansOnly: false });
  });

  it('counts a spawn storm beside the others in a burst', () => {
    const [notice] = run([
      {
        at: NOW,
        groups: [group(8, { flags: ['spawn-storm'] }), group(9, { flags: ['orphan'] })],
      },
    ]);
    expect(notice!.title).toBe('claude-code: 2 new incidents');
    expect(notice!.body).toMatch(/^1 left behind, 1 starting processes without end; the oldest for /);
  });

  it('announces each incident once while it stays open (dedup)', () => {
    const steps = [0, 1, 2, 3].map((i) => ({ at: NOW + i * 2 * QUIET_WINDOW_MS, groups: [group(5)] }));
    expect(run(steps)).toHaveLength(1);
  });

  it('announces a group again when it becomes a new kind of incident', () => {
    const shown = run([
      { at: NOW, groups: [group(5)] },
      { at: NOW + 2 * QUIET_WINDOW_MS, groups: [group(5, { flags: ['orphan', 'runaway'] })] },
    ]);
    expect(shown.map((n) => n.title)).toEqual([
      'claude-code: process left behind',
      'claude-code: runaway process',
    ]);
  });

  it('turns a burst of 40 orphans in one snapshot into ONE notification', () => {
    const burst = Array.from({ length: 40 }, (_, i) => group(100 + i, { cpuPercent: i }));
    const shown = run([
      { at: NOW, groups: burst },
      { at: NOW + 2000, groups: burst },
    ]);
    expect(shown).toEqual([
      {
        title: 'claude-code: 40 new incidents',
        body: '40 left behind; the oldest for 3m00s. Open Corral to review them.',
        groupId: '139:139:1',
        stop: null,
      },
    ]);
  });

  it('turns a burst of 40 spread over several samples within the window into ONE notification', () => {
    const all = Array.from({ length: 40 }, (_, i) => group(100 + i));
    const steps = [1, 10, 25, 40].map((n, i) => ({ at: NOW + i * 2000, groups: all.slice(0, n) }));
    expect(run(steps)).toHaveLength(1);
  });

  it('notifies again after the quiet window for something new', () => {
    const shown = run([
      { at: NOW, groups: [group(1)] },
      { at: NOW + QUIET_WINDOW_MS - 1, groups: [group(1), group(2)] },
      { at: NOW + QUIET_WINDOW_MS + 5000, groups: [group(1), group(2), group(3)] },
    ]);
    expect(shown.map((n) => n.groupId)).toEqual(['1:1:1', '3:3:1']);
  });

  it('names every agent in a mixed burst and counts both kinds', () => {
    const [notice] = run([
      {
        at: NOW,
        groups: [
          group(1),
          group(2, { agent: { name: 'codex', pid: 2 }, flags: ['runaway'] }),
          group(3, { agent: null }),
        ],
      },
    ]);
    expect(notice!.title).toBe('claude-code, codex, unknown agent: 3 new incidents');
    expect(notice!.body).toMatch(/^2 left behind, 1 runaway; the oldest for/);
  });

  it.each([
    ['paused', { enabled: true, pausedUntil: NOW + MIN }],
    ['disabled', { enabled: false, pausedUntil: null }],
  ] as const)('stays silent while %s, and does not replay those incidents afterwards', (reason, settings) => {
    let state = INITIAL_NOTIFICATION_STATE;
    const quiet = decideNotification(snap([group(1)]), state, { now: NOW, settings });
    expect(quiet).toMatchObject({ notice: null, suppressed: reason });
    state = quiet.state;
    const later = decideNotification(snap([group(1), group(2)]), state, { now: NOW + 2 * MIN, settings: on });
    expect(later.notice?.groupId).toBe('2:2:1');
  });

  it('ignores held-pipe and leaderless groups and unflagged ones', () => {
    expect(
      run([
        {
          at: NOW,
          groups: [
            group(1, { flags: ['held-pipe'] }),
            group(2, { flags: ['leaderless'] }),
            group(3, { flags: [] }),
          ],
        },
      ]),
    ).toEqual([]);
  });

  it('offers stopping only the leftovers when the group contains the agent', () => {
    const [notice] = run([{ at: NOW, groups: [group(4, { containsAgent: true })] }]);
    expect(notice!.stop).toEqual({ groupId: '4:4:1', orphansOnly: true });
  });
});

describe('notification text naming the project and the tool call', () => {
  const session = { id: 's-1', source: 'env' as const, project: '/home/me/shop', agentAlive: false };
  const toolCall = { id: 'toolu_1', command: 'npm run dev', description: null, startedAt: NOW - 4 * MIN };
  const ports = [
    { protocol: 'tcp' as const, address: '127.0.0.1', port: 3000 },
    { protocol: 'tcp6' as const, address: '::1', port: 3000 },
  ];

  it('says which agent in which project left which command running on which port', () => {
    const [notice] = run([{ at: NOW, groups: [group(7, { session, toolCall, ports })] }]);
    expect(notice).toEqual({
      title: 'claude-code in shop: process left behind',
      body: 'claude-code in shop left `npm run dev` running on :3000, 3m00s ago (50% CPU).',
      groupId: '7:7:1',
      stop: { groupId: '7:7:1', orphansOnly: false },
    });
  });

  it("adds the agent's description of the call, and names a runaway's command and port", () => {
    const described = { ...toolCall, description: 'Start the dev server' };
    const [orphan] = run([{ at: NOW, groups: [group(8, { session, toolCall: described, ports })] }]);
    expect(orphan!.body).toBe(
      'claude-code in shop left `npm run dev` running on :3000 (Start the dev server), 3m00s ago (50% CPU).',
    );
    const [runaway] = run([
      { at: NOW, groups: [group(9, { flags: ['runaway'], cpuPercent: 99, session, toolCall, ports })] },
    ]);
    expect(runaway!.title).toBe('claude-code in shop: runaway process');
    expect(runaway!.body).toBe('`npm run dev` on :3000 has been using 99% CPU; running for 1h30m.');
  });

  it('uses what is known: a session without a tool call names the project and the unwrapped command', () => {
    const wrapped = group(10, { session });
    wrapped.processes[0]!.command =
      "/bin/bash -c source /root/.claude/shell-snapshots/snapshot-bash-1.sh && eval 'python3 -m http.server' \\< /dev/null";
    const [notice] = run([{ at: NOW, groups: [wrapped] }]);
    expect(notice!.body).toBe(
      'claude-code in shop left `python3 -m http.server` running, 3m00s ago (50% CPU).',
    );
    const portOnly = run([{ at: NOW, groups: [group(11, { ports })] }]);
    expect(portOnly[0]!.body).toBe('claude-code left `yes 11` running on :3000, 3m00s ago (50% CPU).');
  });

  it('keeps the older wording when nothing about the session, tool call or ports is known', () => {
    const [notice] = run([{ at: NOW, groups: [group(12, { session: null, toolCall: null, ports: [] })] }]);
    expect(notice!.body).toBe('yes 12 kept running after its tool call ended, 3m00s ago (50% CPU).');
  });
});
