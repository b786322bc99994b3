import { describe, expect, it } from 'vitest';
import { BirthWindow } from '../../main/core/analysis/birth-window';
import {
  initialSpawnStormState,
  nextSpawnStormState,
  type SpawnReading,
  type SpawnStormState,
} from '../../main/core/analysis/spawn-storm';
import { validateSettings } from '../../main/core/config/validate-settings';
import { DEFAULT_SPAWN_STORM } from '../../shared/settings-table';
import { spawnStormNow, spawnStormPeak } from '../../shared/words/spawn-storm-words';

const policy = { birthsPerMinute: 1000, repeatsPerMinute: 300, windowSeconds: 10, members: 100 };
const quiet: SpawnReading = { perMinute: 0, repeatsPerMinute: 0, members: 1, membersWindowAgo: 1 };

/** Feeds [time s, reading] through the rule; returns [active, reason] after each. */
function run(readings: Array<[number, Partial<SpawnReading>]>): Array<[boolean, string | null]> {
  let state: SpawnStormState = initialSpawnStormState();
  return readings.map(([s, r]) => {
    state = nextSpawnStormState(state, { ...quiet, ...r }, s * 1000, policy);
    return [state.active, state.reason];
  });
}

describe('spawn-storm rule', () => {
  it.each<[string, Array<[number, Partial<SpawnReading>]>, Array<[boolean, string | null]>]>([
    [
      'a build burst shorter than the window',
      [
        [0, { perMinute: 5000 }],
        [9, { perMinute: 5000 }],
        [10, {}],
      ],
      [
        [false, null],
        [false, null],
        [false, null],
      ],
    ],
    [
      'above the rate for the whole window',
      [
        [0, { perMinute: 1500 }],
        [10, { perMinute: 1500 }],
      ],
      [
        [false, null],
        [true, 'birth-rate'],
      ],
    ],
    [
      'one command repeated above its own rate',
      [
        [0, { perMinute: 400, repeatsPerMinute: 400 }],
        [10, { perMinute: 400, repeatsPerMinute: 400 }],
      ],
      [
        [false, null],
        [true, 'repeated-command'],
      ],
    ],
    [
      'a dip below the threshold restarts the window',
      [
        [0, { perMinute: 1500 }],
        [5, { perMinute: 900 }],
        [12, { perMinute: 1500 }],
        [16, { perMinute: 1500 }],
      ],
      [
        [false, null],
        [false, null],
        [false, null],
        [false, null],
      ],
    ],
    [
      'members past the threshold and growing: at once',
      [[0, { members: 150, membersWindowAgo: 90 }]],
      [[true, 'member-growth']],
    ],
    [
      'members past the threshold but not growing',
      [[0, { members: 150, membersWindowAgo: 150 }]],
      [[false, null]],
    ],
    [
      'members growing, not known a window ago yet',
      [[0, { members: 150, membersWindowAgo: null }]],
      [[false, null]],
    ],
  ])('%s', (_name, readings, expected) => {
    expect(run(readings)).toEqual(expected);
  });

  it('clears only below half the rate, held for a quarter of the window (at least 2 s)', () => {
    const storm: Array<[number, Partial<SpawnReading>]> = [
      [0, { perMinute: 1500 }],
      [10, { perMinute: 1500 }],
    ];
    // Between half and the threshold: still a storm.
    expect(run([...storm, [11, { perMinute: 600 }], [20, { perMinute: 600 }]]).map((r) => r[0])).toEqual([
      false,
      true,
      true,
      true,
    ]);
    // Below half, but for less than 2.5 s: still a storm; then it clears.
    expect(
      run([...storm, [11, { perMinute: 100 }], [13, { perMinute: 100 }], [13.5, { perMinute: 100 }]]).map(
        (r) => r[0],
      ),
    ).toEqual([false, true, true, true, false]);
    // A burst back above half restarts the calm.
    expect(
      run([
        ...storm,
        [11, { perMinute: 100 }],
        [12, { perMinute: 800 }],
        [14, { perMinute: 100 }],
        [16, { perMinute: 100 }],
      ]).map((r) => r[0]),
    ).toEqual([false, true, true, true, true, true]);
  });
});

describe('birth window', () => {
  it('scales births to a minute over the window, and over at least 2 s while young', () => {
    const w = new BirthWindow(0);
    w.add(500, 10, true);
    expect(w.perMinute(1000, 10_000)).toBe(300);
    for (let t = 1000; t <= 20_000; t += 1000) w.add(t, 100, false);
    // The bucket the window starts in counts whole (10 000 to 20 000: eleven adds).
    expect(w.countWithin(20_000, 10_000)).toBe(1100);
    expect(w.perMinute(20_000, 10_000)).toBe(6600);
    expect(w.total).toBe(2010);
    expect(w.unseen).toBe(2000);
  });

  it('rates each command line on its own and lists the most repeated first', () => {
    const w = new BirthWindow(0);
    for (let t = 0; t < 10_000; t += 100) {
      w.addCommand(t, '/bin/true', 1);
      if (t % 1000 === 0) w.addCommand(t, `gcc -c f${t}.c`, 1);
    }
    expect(w.topCommandPerMinute(10_000, 10_000)).toBe(600);
    expect(w.topCommands(2)).toEqual([
      { command: '/bin/true', count: 100 },
      { command: 'gcc -c f0.c', count: 1 },
    ]);
  });
});

describe('spawnStorm settings and words', () => {
  it('takes the keys given, refuses bad ones by name and keeps their defaults', () => {
    const { settings, errors } = validateSettings({
      spawnStorm: { birthsPerMinute: 9000, members: 1.5, windowSeconds: -1, burst: 3 },
    });
    expect(settings.spawnStorm).toEqual({ ...DEFAULT_SPAWN_STORM, birthsPerMinute: 9000 });
    expect(errors).toEqual([
      'spawnStorm.burst: unknown key',
      'spawnStorm.windowSeconds: -1 is outside 0.1..86400',
      'spawnStorm.members: expected an integer, got 1.5',
    ]);
  });

  it('says the rate first, in words', () => {
    const facts = {
      reason: 'birth-rate' as const,
      birthsPerMinute: 14550,
      repeatsPerMinute: 2000,
      peakBirthsPerMinute: 15000,
      members: 2,
      peakMembers: 3,
      births: 1319,
      unseenBirths: 1083,
      repeated: [{ command: '/bin/true', count: 1200 }],
    };
    expect(spawnStormNow(facts)).toBe('starts 14,550 processes a minute, mostly /bin/true');
    expect(spawnStormNow({ ...facts, reason: 'repeated-command' })).toBe(
      'starts /bin/true 2,000 times a minute (14,550 processes a minute in all)',
    );
    expect(spawnStormNow({ ...facts, reason: 'member-growth', members: 250 })).toBe(
      'has 250 processes alive and still growing, mostly /bin/true',
    );
    expect(spawnStormPeak(facts)).toBe('started up to 15,000 processes a minute; /bin/true ×1,200');
  });
});
