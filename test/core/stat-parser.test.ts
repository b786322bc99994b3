import { describe, expect, it } from 'vitest';
import { parseStat, statState } from '../../main/core/sampling/linux/stat-parser';

const line = (name: string) =>
  new TextEncoder().encode(
    `4242 (${name}) S 1 4242 4242 0 -1 4194560 100 0 0 0 7 3 0 0 20 0 1 0 123456 1000 250 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n`,
  );

describe('parseStat with the name it had before', () => {
  it('reads every field as without it when the bytes still spell that name', () => {
    const bytes = line('sleep');
    const f = parseStat(bytes, bytes.length, 'sleep');
    expect(f).toEqual(parseStat(bytes, bytes.length));
    expect(f?.name).toBe('sleep');
    expect(f).toMatchObject({ pid: 4242, ppid: 1, pgid: 4242, sid: 4242, utimeTicks: 7, stimeTicks: 3 });
    expect(f).toMatchObject({ threads: 1, startTicks: 123456, rssPages: 250, exitSignal: 17 });
  });

  it('decodes the bytes when the process was renamed, or the name is not ASCII', () => {
    const renamed = line('node (x) y');
    expect(parseStat(renamed, renamed.length, 'sleep')?.name).toBe('node (x) y');
    const longer = line('sleepy');
    expect(parseStat(longer, longer.length, 'sleep')?.name).toBe('sleepy');
    const accented = line('café');
    expect(parseStat(accented, accented.length, 'café')?.name).toBe('café');
  });

  it('still refuses a line cut before the rss field', () => {
    const cut = new TextEncoder().encode('4242 (sleep) S 1 4242 4242 0 -1 4194560 100 0 0 0 7 3');
    expect(parseStat(cut, cut.length, 'sleep')).toBeNull();
  });
});

describe('statState: the state letter alone', () => {
  it('reads it after the last parenthesis, whatever the name holds', () => {
    const bytes = line('a) Z (b');
    expect(statState(bytes, bytes.length)).toBe('S');
    const zombie = new TextEncoder().encode('7 (sh) Z 1 7 7 0 -1\n');
    expect(statState(zombie, zombie.length)).toBe('Z');
  });

  it('is null for a line cut short before it', () => {
    const cut = new TextEncoder().encode('7 (sh)');
    expect(statState(cut, cut.length)).toBeNull();
  });
});
