import { describe, expect, it } from 'vitest';
import { parseMemberStat } from '../../main/core/sampling/linux/member-stats';

const stat = (comm: string, rest: string) => Buffer.from(`4242 (${comm}) ${rest}\n`);
// state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime prio nice threads itreal starttime ...
const TAIL = 'S 1 4200 4100 0 -1 4194560 10 0 0 0 1 2 0 0 20 0 1 0 987654 1000 50';

describe('parseMemberStat', () => {
  it.each([
    ['a plain name', 'sleep'],
    ['spaces and parentheses in the name', 'my (odd) name) x'],
    ['a newline in the name', 'a\nb'],
  ])('reads pid, ppid, pgid, sid, state and start key with %s', (_what, comm) => {
    const buf = stat(comm, TAIL);
    expect(parseMemberStat(buf, buf.length)).toEqual({
      pid: 4242,
      ppid: 1,
      pgid: 4200,
      sid: 4100,
      state: 'S',
      startKey: 987654,
    });
  });

  it('keeps the -1 the kernel shows for an exiting task', () => {
    const buf = stat('sleep', TAIL.replace('S 1 4200 4100', 'R 1 -1 -1'));
    expect(parseMemberStat(buf, buf.length)).toMatchObject({ pgid: -1, sid: -1, state: 'R' });
  });

  it.each([
    ['truncated', stat('sleep', 'S 1 4200')],
    ['garbage', Buffer.from('not a stat line')],
  ])('is null for %s input', (_what, buf) => {
    expect(parseMemberStat(buf, buf.length)).toBeNull();
  });
});
