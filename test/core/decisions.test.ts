import { describe, expect, it } from 'vitest';
import { isOrphan, type OrphanEvidence } from '../../main/core/analysis/orphans';
import {
  initialRunawayState,
  looksRunawayNow,
  nextRunawayState,
  provenRunningMs,
  runawayLoad,
} from '../../main/core/analysis/runaway';
import { chooseAnchor, formatGroupId, parseGroupId } from '../../main/core/analysis/group-id';

const base: OrphanEvidence = {
  attributed: true,
  isAgent: false,
  ppid: 1,
  parent: { pid: 1, name: 'tini' },
  parentAttributed: false,
  observedReparent: false,
};

describe('isOrphan', () => {
  it.each<[string, Partial<OrphanEvidence>, boolean]>([
    ['adopted by PID 1 (tool call gone, a double fork, or a setsid escape)', {}, true],
    ['not attributed to an agent', { attributed: false }, false],
    ['the agent itself at PPID 1 (a daemon)', { isAgent: true }, false],
    [
      'parent alive, not adopted',
      { ppid: 500, parent: { pid: 500, name: 'bash' }, parentAttributed: true },
      false,
    ],
    ['adopted by systemd --user (a subreaper)', { ppid: 900, parent: { pid: 900, name: 'systemd' } }, true],
    [
      'a child of an agent that runs as PID 1 (a container)',
      { parent: { pid: 1, name: 'claude' }, parentAttributed: true },
      false,
    ],
    [
      'adopted by a subreaper the agent runs under',
      { ppid: 900, parent: { pid: 900, name: 'systemd' }, parentAttributed: true },
      false,
    ],
    [
      'observed reparenting to any process',
      { ppid: 700, parent: { pid: 700, name: 'bash' }, observedReparent: true },
      true,
    ],
    ['observed, but not an agent process', { attributed: false, observedReparent: true }, false],
  ])('%s → %s', (_, evidence, expected) => {
    expect(isOrphan({ ...base, ...evidence })).toBe(expected);
  });
});

describe('runaway detection', () => {
  const policy = { cpuPercent: 80, windowSeconds: 30 };
  const run = (readings: Array<[number, number | null]>) => {
    let state = initialRunawayState();
    const out: boolean[] = [];
    for (const [t, cpu] of readings) {
      state = nextRunawayState(state, cpu, t * 1000, policy);
      out.push(state.active);
    }
    return out;
  };

  it('fires only after the whole window above the threshold', () => {
    expect(
      run([
        [0, 95],
        [10, 99],
        [29, 90],
        [30, 97],
      ]),
    ).toEqual([false, false, false, true]);
  });

  it('restarts the window when CPU dips below the threshold', () => {
    expect(
      run([
        [0, 95],
        [20, 50],
        [25, 95],
        [50, 95],
        [55, 95],
      ]),
    ).toEqual([false, false, false, false, true]);
  });

  it('does not flap: clears only after sustained calm below half the threshold', () => {
    const readings: Array<[number, number | null]> = [
      [0, 99],
      [30, 99],
      [31, 60],
      [32, 30],
      [35, 99],
      [36, 10],
      [40, 10],
      [44, 10],
    ];
    expect(run(readings)).toEqual([false, true, true, true, true, true, true, false]);
  });

  it('keeps a streak through readings that swing around the threshold while its average stays above', () => {
    // Under contention a run-queue wait is counted when the process next runs: 130 % then 70 %. Each
    // reading covers the second before it, as the monitor's do (provenRunningMs dates the first back).
    let state = initialRunawayState();
    for (let t = 1; t <= 30; t++) state = nextRunawayState(state, t % 2 ? 130 : 70, t * 1000, policy, 1000);
    expect(state).toMatchObject({ hotSince: 0, active: true });
  });

  it('ends a streak whose average falls under the threshold (half the time busy is no runaway)', () => {
    const alternating: Array<[number, number]> = Array.from({ length: 61 }, (_, t) => [t, t % 2 ? 45 : 100]);
    expect(run(alternating).some(Boolean)).toBe(false);
  });

  it('ends a streak at one reading under half the threshold (the process rested)', () => {
    const readings: Array<[number, number]> = Array.from({ length: 31 }, (_, t) => [t, 99]);
    readings[25] = [25, 10];
    expect(run(readings).some(Boolean)).toBe(false);
  });

  it.each([
    // share received, demand (received + waited), wait reported → the load the rule compares
    [52, 100, true, 100],
    [52, null, true, null],
    [52, null, false, 52],
    [3, 4, true, 4],
  ])(
    'runaway load: %s %% received, %s %% wanted (wait reported: %s) → %s',
    (share, demand, reported, load) => {
      expect(runawayLoad(share, demand, reported)).toBe(load);
    },
  );

  it('ignores unknown readings', () => {
    expect(
      run([
        [0, 95],
        [15, null],
        [30, 95],
      ]),
    ).toEqual([false, false, true]);
  });

  it('dates a first hot reading back by how long the process must have been running', () => {
    // Read after 20 s unread: 95 % of a core over them, so running at least 19 s: runaway at 30 s, not 49.
    const first = nextRunawayState(initialRunawayState(), 95, 20_000, policy, 19_000);
    expect(first).toMatchObject({ hotSince: 1_000, coolSince: null, active: false });
    expect(nextRunawayState(first, 95, 31_000, policy).active).toBe(true);
    // A streak already running keeps its start.
    expect(nextRunawayState(first, 95, 25_000, policy, 5_000).hotSince).toBe(1_000);
  });

  it.each([
    // percent of a core, gap ms, threads, cores → ms it must have run
    [95, 20_000, 1, 2, 19_000],
    // Two threads on two cores could have burned it in half the time.
    [95, 20_000, 2, 2, 9_500],
    [95, 20_000, undefined, 4, 4_750],
    // More than one core's worth over the gap: never longer than the gap.
    [190, 20_000, 8, 2, 19_000],
    [300, 1_000, 1, 2, 1_000],
    [0, 20_000, 1, 2, 0],
    [95, 0, 1, 2, 0],
  ])('proven running: %s %% over %s ms, %s threads, %s cores → %s ms', (cpu, gap, threads, cores, ms) => {
    expect(provenRunningMs(cpu, gap, threads, cores)).toBe(ms);
  });

  it.each([
    [95, 600_000, 600_000, true],
    [95, 600_000, 10_000, false],
    [95, 60_000, 600_000, false],
    [20, 600_000, 600_000, false],
    [null, 600_000, 600_000, false],
  ])('one-shot: %s%% now, %s ms CPU over %s ms → %s', (cpu, cpuMs, ageMs, expected) => {
    expect(looksRunawayNow(cpu, cpuMs, ageMs, policy)).toBe(expected);
  });

  it('one-shot: a loop given half a core over its life, waiting the other half, demanded it all', () => {
    expect(looksRunawayNow(100, 37_800, 71_000, policy)).toBe(false);
    expect(looksRunawayNow(100, 37_800, 71_000, policy, 33_400)).toBe(true);
  });
});

describe('group ids', () => {
  it('round-trips', () => {
    const id = formatGroupId({ pgid: 4242, anchorPid: 4250, anchorStartKey: 987654 });
    expect(id).toBe('4242:4250:987654');
    expect(parseGroupId(id)).toEqual({ pgid: 4242, anchorPid: 4250, anchorStartKey: 987654 });
  });

  it.each(['4242', '-1:1:1', '0:5:5', '1:1:1', '12:ab:3', '1:2:3:4', '', '99999999999:1:1'])(
    'rejects %j',
    (id) => {
      expect(parseGroupId(id)).toBeNull();
    },
  );

  it('anchors on the leader, else on the oldest member', () => {
    const members = [
      { pid: 30, startKey: 300 },
      { pid: 20, startKey: 200 },
      { pid: 10, startKey: 100 },
    ];
    expect(chooseAnchor(20, members)).toEqual({ pid: 20, startKey: 200 });
    expect(chooseAnchor(99, members)).toEqual({ pid: 10, startKey: 100 });
  });
});
