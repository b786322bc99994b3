import { describe, expect, it } from 'vitest';
import { formatBytes, formatTable } from '../../main/cli/terminal-text';

const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;

describe("the terminal's compact sizes", () => {
  it.each([
    [0, '0B'],
    [1023, '1023B'],
    [KiB, '1.0K'],
    [1536, '1.5K'],
    // 9.999 K would read 10.0K: from 10 on a figure is whole.
    [10 * KiB - 1, '10K'],
    [10 * KiB, '10K'],
    [MiB - 1, '1.0M'],
    [12 * MiB, '12M'],
    [3.2 * GiB, '3.2G'],
  ])('%i bytes → %s', (bytes, text) => expect(formatBytes(bytes)).toBe(text));
});

describe('formatTable', () => {
  it('pads every column but the last to its widest cell, two spaces apart', () => {
    expect(
      formatTable([
        ['ID', 'RSS', 'WHAT'],
        ['12:12:1', '1.5K', 'sleep 600'],
      ]),
    ).toBe('ID       RSS   WHAT\n12:12:1  1.5K  sleep 600');
  });
});
