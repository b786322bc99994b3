import { describe, expect, it } from 'vitest';
import {
  initialMemoryHogState,
  nextMemoryHogState,
  type MemoryHogState,
} from '../../main/core/analysis/memory-hog';

const MB = 1024 * 1024;
const policy = { groupMegabytes: 100, windowSeconds: 10 };

/** Feeds [time s, megabytes] readings through the rule; returns `active` after each. */
function run(readings: Array<[number, number]>): boolean[] {
  let state: MemoryHogState = initialMemoryHogState();
  return readings.map(([s, mb]) => {
    state = nextMemoryHogState(state, mb * MB, s * 1000, policy);
    return state.active;
  });
}

describe('memory-hog rule', () => {
  it.each<[string, Array<[number, number]>, boolean[]]>([
    [
      'never above the threshold',
      [
        [0, 50],
        [5, 99],
        [20, 90],
      ],
      [false, false, false],
    ],
    [
      'above for less than the window',
      [
        [0, 150],
        [9, 150],
      ],
      [false, false],
    ],
    [
      'above for the whole window',
      [
        [0, 150],
        [5, 200],
        [10, 120],
      ],
      [false, false, true],
    ],
    [
      'a dip below the threshold restarts the window',
      [
        [0, 150],
        [5, 90],
        [10, 150],
        [15, 150],
        [20, 150],
      ],
      [false, false, false, false, true],
    ],
    [
      'stays active between 75% and 100% (hysteresis)',
      [
        [0, 150],
        [10, 150],
        [11, 80],
        [30, 76],
      ],
      [false, true, true, true],
    ],
    [
      'clears below 75% held for a quarter of the window',
      [
        [0, 150],
        [10, 150],
        [11, 70],
        [12, 70],
        [13.5, 70],
      ],
      [false, true, true, true, false],
    ],
    [
      'a rise during the cool-down restarts it',
      [
        [0, 150],
        [10, 150],
        [11, 70],
        [12, 90],
        [13.5, 70],
        [15, 70],
      ],
      [false, true, true, true, true, true],
    ],
  ])('%s', (_name, readings, expected) => {
    expect(run(readings)).toEqual(expected);
  });

  it('keeps the peak while high and active, and forgets it once cleared', () => {
    let state = initialMemoryHogState();
    state = nextMemoryHogState(state, 150 * MB, 0, policy);
    state = nextMemoryHogState(state, 300 * MB, 5000, policy);
    state = nextMemoryHogState(state, 120 * MB, 10_000, policy);
    expect(state).toMatchObject({ active: true, peakBytes: 300 * MB });
    state = nextMemoryHogState(state, 10 * MB, 11_000, policy);
    state = nextMemoryHogState(state, 10 * MB, 14_000, policy);
    expect(state).toEqual(initialMemoryHogState());
  });
});
