import { describe, expect, it } from 'vitest';
import { identityRefusal, targetRefusal } from '../../main/core/actions/target-safety';
import type { TeardownTarget } from '../../main/core/actions/stop-and-record';

const self = { pid: 500, pgid: 490, sid: 480 };

function target(over: Partial<TeardownTarget> = {}): TeardownTarget {
  const pgid = over.pgid ?? 1000;
  const anchor = over.anchor ?? { pid: pgid, startKey: 77 };
  return {
    groupId: `${pgid}:${anchor.pid}:${anchor.startKey}`,
    pgid,
    sid: 1000,
    anchor,
    members: [{ pid: anchor.pid, startKey: anchor.startKey, command: 'bash' }],
    orphans: [],
    escaped: [],
    containsAgent: false,
    protectedReason: null,
    ...over,
  };
}

describe('targetRefusal', () => {
  const cases: Array<[string, TeardownTarget, 'group' | 'orphans-only', RegExp | null]> = [
    ['a plain tool-call group', target(), 'group', null],
    ['PGID 0', target({ pgid: 0, groupId: '0:1000:77' }), 'group', /not a group id/],
    ['PGID 1', target({ pgid: 1, groupId: '1:1000:77' }), 'group', /not a group id/],
    ['PGID 1 behind a valid id', target({ groupId: '1000:1000:77', pgid: 1 }), 'group', /does not match/],
    ['a negative PGID', target({ pgid: -1000, groupId: '-1000:1000:77' }), 'group', /not a group id/],
    ['a fractional PGID', target({ pgid: 1000.5 }), 'group', /not a group id/],
    ['a malformed id', target({ groupId: '1000' }), 'group', /not a group id/],
    ['an id naming another anchor', target({ groupId: '1000:1001:77' }), 'group', /does not match/],
    ['an id with another start key', target({ groupId: '1000:1000:78' }), 'group', /does not match/],
    ['anchor PID 1', target({ anchor: { pid: 1, startKey: 1 } }), 'group', /not a group id|not a process/],
    ["Corral's own group", target({ pgid: self.pgid }), 'group', /own process group/],
    ["Corral's own group, orphans-only", target({ pgid: self.pgid }), 'orphans-only', /own process group/],
    ['a group led by Corral', target({ pgid: self.pid }), 'group', /own process group/],
    ["Corral's session leader's group", target({ pgid: self.sid }), 'group', /own session/],
    ["a group in Corral's session", target({ sid: self.sid }), 'group', /own session/],
    ['a negative session', target({ sid: -1 }), 'group', /not a valid session/],
    [
      'a group listing Corral as a member',
      target({ members: [{ pid: self.pid, startKey: 1, command: 'corral' }] }),
      'group',
      /Corral itself/,
    ],
    [
      'a group listing PID 1',
      target({ members: [{ pid: 1, startKey: 1, command: 'init' }] }),
      'group',
      /PID 0 or 1/,
    ],
    ['a group holding the agent', target({ containsAgent: true }), 'group', /agent.*orphans-only/],
    ['the agent group, orphans-only', target({ containsAgent: true }), 'orphans-only', null],
    [
      'a protected group',
      target({ protectedReason: 'holds your interactive shell' }),
      'group',
      /holds your interactive shell.*orphans-only/,
    ],
    [
      'a protected group, orphans-only',
      target({ protectedReason: 'holds your interactive shell' }),
      'orphans-only',
      null,
    ],
  ];

  it.each(cases)('%s', (_name, t, mode, expected) => {
    const refusal = targetRefusal(t, mode, self);
    if (expected === null) expect(refusal).toBeNull();
    else expect(refusal).toMatch(expected);
  });
});

describe('identityRefusal', () => {
  const cases: Array<[string, { pid: number; startKey: number }, RegExp | null]> = [
    ['an ordinary process', { pid: 4242, startKey: 9 }, null],
    ['PID 0', { pid: 0, startKey: 9 }, /never signalled/],
    ['PID 1', { pid: 1, startKey: 9 }, /never signalled/],
    ['a negative PID', { pid: -4242, startKey: 9 }, /never signalled/],
    ['Corral itself', { pid: self.pid, startKey: 9 }, /Corral itself/],
    ['no start key', { pid: 4242, startKey: Number.NaN }, /start key/],
  ];

  it.each(cases)('%s', (_name, id, expected) => {
    const refusal = identityRefusal({ ...id, command: 'x' }, self);
    if (expected === null) expect(refusal).toBeNull();
    else expect(refusal).toMatch(expected);
  });
});
