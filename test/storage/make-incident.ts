import type { Incident } from '../../shared/model';

export function makeIncident(id: string, overrides: Partial<Incident> = {}): Incident {
  return {
    id,
    kind: 'orphan',
    agent: 'claude-code',
    agentPid: 4242,
    groupId: `${id}-group`,
    pgid: 5000,
    sid: 5000,
    processes: [{ pid: 5001, startKey: 123456, command: "bash -c 'until false; do :; done'" }],
    openedAt: Date.UTC(2026, 8, 13, 12),
    closedAt: null,
    cpuSeconds: 0,
    peakRssBytes: 4096,
    end: 'open',
    flags: [overrides.kind ?? 'orphan'],
    phases: { orphanedAt: null, leaderlessAt: null, runaway: [], heldPipe: [] },
    openedAtSource: 'observed',
    earliestStartAt: null,
    closedAtSource: null,
    ...overrides,
  };
}
