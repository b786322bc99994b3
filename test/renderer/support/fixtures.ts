import type {
  GroupTimeline,
  GroupView,
  Incident,
  ProcessView,
  Settings,
  Snapshot,
  TimelineLane,
} from '../../../shared/model';

export const T0 = Date.UTC(2026, 0, 15, 12, 0, 0);

export function makeProcess(overrides: Partial<ProcessView> & { pid: number }): ProcessView {
  return {
    ppid: 1,
    pgid: overrides.pid,
    sid: overrides.pid,
    uid: 1000,
    state: 'S',
    startedAt: T0 - 60_000,
    startKey: overrides.pid * 10,
    cpuPercent: 0,
    rssBytes: 4 * 1024 * 1024,
    command: `proc-${overrides.pid}`,
    flags: [],
    name: `proc-${overrides.pid}`,
    argv: [`proc-${overrides.pid}`],
    tty: null,
    cpuSeconds: 0,
    ...overrides,
  };
}

export function makeGroup(overrides: Partial<GroupView> & { pgid: number }): GroupView {
  const processes = overrides.processes ?? [makeProcess({ pid: overrides.pgid, pgid: overrides.pgid })];
  return {
    id: `${overrides.pgid}:${overrides.pgid}:1`,
    sid: overrides.pgid,
    leaderPid: overrides.pgid,
    leaderAlive: true,
    agent: null,
    flags: [],
    cpuPercent: processes.reduce((sum, p) => sum + (p.cpuPercent ?? 0), 0),
    rssBytes: processes.reduce((sum, p) => sum + (p.rssBytes ?? 0), 0),
    startedAt: Math.min(...processes.map((p) => p.startedAt)),
    containsAgent: false,
    ...overrides,
    processes,
  };
}

export function makeSnapshot(seq: number, groups: GroupView[], extra: Partial<Snapshot> = {}): Snapshot {
  return { seq, sampledAt: T0 + seq * 1000, groups, ...extra };
}

export function makeLane(overrides: Partial<TimelineLane> & { pid: number }): TimelineLane {
  return {
    startKey: overrides.pid * 10,
    ppid: 1,
    pgid: 500,
    sid: 500,
    command: `proc-${overrides.pid}`,
    startedAt: T0 - 120_000,
    exitedAt: null,
    leftGroup: false,
    cpuSeconds: 0,
    segments: [],
    cpu: [],
    markers: [],
    ...overrides,
  };
}

export function makeTimeline(groupId: string, lanes: TimelineLane[], to = T0): GroupTimeline {
  return {
    groupId,
    pgid: 500,
    sid: 500,
    agent: { name: 'claude-code', pid: 42 },
    from: to - 3_600_000,
    to,
    lanes,
  };
}

export function makeSettings(overrides: Partial<Settings> = {}): Settings {
  return {
    pollIntervalMs: 2000,
    runaway: { cpuPercent: 90, windowSeconds: 60 },
    memory: { groupMegabytes: 2048, windowSeconds: 60 },
    policyMode: 'observe',
    policies: [],
    teardown: { graceMs: 3000 },
    notifications: { enabled: true, pausedUntil: null },
    agents: [],
    ...overrides,
  };
}

export function makeIncident(overrides: Partial<Incident> & { id: string }): Incident {
  return {
    kind: 'orphan',
    agent: 'claude-code',
    agentPid: 42,
    groupId: '500:500:1',
    pgid: 500,
    sid: 500,
    processes: [{ pid: 501, startKey: 1, command: 'sleep 600' }],
    openedAt: T0,
    closedAt: T0 + 60_000,
    cpuSeconds: 10,
    peakRssBytes: 1024 * 1024,
    end: 'exited',
    flags: [overrides.kind ?? 'orphan'],
    phases: { orphanedAt: overrides.openedAt ?? T0, leaderlessAt: null, runaway: [], heldPipe: [] },
    openedAtSource: 'observed',
    earliestStartAt: null,
    closedAtSource: 'observed',
    ...overrides,
  };
}
