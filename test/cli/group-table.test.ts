import { describe, expect, it } from 'vitest';
import { renderGroups } from '../../main/cli/group-table';
import type { SessionRef } from '../../shared/model';
import { makeGroup } from '../transport/fake-corral-service';

const plain = { colour: false, width: Infinity, height: Infinity };

describe("a group's session on its own heading line above it", () => {
  it.each([
    [true, '▸ claude-code · shop · session 3f0e5a52 · agent alive'],
    [false, '▸ claude-code · shop · session 3f0e5a52 · agent exited'],
    [null, '▸ claude-code · shop · session 3f0e5a52 · agent not known'],
  ])('agentAlive %s reads %s', (agentAlive, words) => {
    const session: SessionRef = {
      id: '3f0e5a52-7a53-4c55',
      source: 'env',
      project: '/home/me/shop',
      agentAlive,
    };
    const group = makeGroup({ agent: { name: 'claude-code', pid: null }, session });
    const [, heading, row] = renderGroups([group], group.startedAt, plain);
    expect(heading).toBe(words);
    expect(row).not.toContain('session');
  });
});
