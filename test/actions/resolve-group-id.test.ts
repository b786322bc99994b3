import { describe, expect, it } from 'vitest';
import type { GroupView, ProcessView } from '../../shared/model';
import { resolveGroupId } from '../../main/core/actions/resolve-group-id';

const proc = (pid: number, startKey: number): ProcessView =>
  ({ pid, startKey, pgid: 74, sid: 74, flags: [] }) as unknown as ProcessView;
const group = (id: string, ...processes: ProcessView[]): GroupView =>
  ({ id, pgid: 74, processes }) as unknown as GroupView;

describe('resolveGroupId', () => {
  const cases: Array<{
    name: string;
    id: string;
    groups: GroupView[];
    remembered?: Array<{ pid: number; startKey: number }>;
    kind: string;
    proof?: string;
  }> = [
    { name: 'nothing left in the PGID', id: '74:74:100', groups: [], kind: 'already-gone' },
    {
      name: 'the id it has now',
      id: '74:75:101',
      groups: [group('74:75:101', proc(75, 101))],
      kind: 'found',
      proof: 'same-id',
    },
    {
      name: 'the anchor still in it (the leader died, its id moved)',
      id: '74:75:101',
      groups: [group('74:76:90', proc(75, 101), proc(76, 90))],
      kind: 'found',
      proof: 'anchor',
    },
    {
      name: 'the leader gone, a member Corral saw under that id still in it',
      id: '74:74:100',
      groups: [group('74:75:101', proc(75, 101))],
      remembered: [{ pid: 75, startKey: 101 }],
      kind: 'found',
      proof: 'remembered-member',
    },
    {
      name: 'a member as old as the anchor still in it',
      id: '74:74:100',
      groups: [group('74:75:100', proc(75, 100))],
      kind: 'found',
      proof: 'older-member',
    },
    {
      name: 'a live leader that is not the anchor: a new group',
      id: '74:74:100',
      groups: [group('74:74:900', proc(74, 900), proc(80, 901))],
      kind: 'reused',
    },
    {
      name: 'a leader alive when the id named a leaderless group',
      id: '74:75:101',
      groups: [group('74:74:900', proc(74, 900))],
      kind: 'reused',
    },
    {
      name: 'a remembered pid whose start differs does not prove it',
      id: '74:74:100',
      groups: [group('74:75:500', proc(75, 500))],
      remembered: [{ pid: 75, startKey: 101 }],
      kind: 'unproven',
    },
    {
      name: 'leaderless, every member younger than the anchor, nothing remembered',
      id: '74:74:100',
      groups: [group('74:75:101', proc(75, 101))],
      kind: 'unproven',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = resolveGroupId(c.id, c.groups, c.remembered);
      expect(r.kind).toBe(c.kind);
      if (c.proof) expect(r).toMatchObject({ proof: c.proof });
    });
  }

  it('never claims reuse when it cannot prove it', () => {
    const r = resolveGroupId('74:74:100', [group('74:75:101', proc(75, 101))]);
    expect(r).toMatchObject({ kind: 'unproven' });
    expect('message' in r && r.message).toContain('use the id it shows now (74:75:101)');
  });
});
