import { describe, expect, it } from 'vitest';
import type { PolicyMatch, ProcessView } from '../../shared/model';
import {
  compileRule,
  matchingRules,
  ruleMatches,
  type PolicyGroup,
} from '../../main/core/analysis/policy-match';

const NOW = Date.parse('2026-11-30T12:00:00Z');
const MB = 1024 * 1024;

function proc(overrides: Partial<ProcessView> = {}): ProcessView {
  return {
    pid: 501,
    ppid: 1,
    pgid: 500,
    sid: 500,
    uid: 1000,
    state: 'R',
    startedAt: NOW - 7200_000,
    startKey: 1,
    cpuPercent: 99,
    rssBytes: 300 * MB,
    command: 'node /home/u/app/node_modules/.bin/vite --port 5173',
    flags: ['orphan', 'runaway'],
    name: 'node',
    argv: [],
    tty: null,
    cpuSeconds: 900,
    ...overrides,
  };
}

function group(overrides: Partial<PolicyGroup> = {}): PolicyGroup {
  return {
    id: '500:501:1',
    pgid: 500,
    sid: 500,
    leaderPid: 500,
    leaderAlive: false,
    agent: { name: 'claude-code', pid: 100 },
    flags: ['orphan', 'leaderless', 'runaway'],
    processes: [proc()],
    cpuPercent: 99,
    rssBytes: 300 * MB,
    startedAt: NOW - 7200_000,
    containsAgent: false,
    ...overrides,
  };
}

const matches = (match: PolicyMatch, g: PolicyGroup = group(), enabled?: boolean): boolean =>
  ruleMatches(compileRule({ name: 'r', match, action: 'stop', enabled }), g, NOW);

describe('policy matcher', () => {
  it.each<[string, PolicyMatch, PolicyGroup, boolean]>([
    ['agent listed', { agents: ['codex', 'claude-code'] }, group(), true],
    ['agent not listed', { agents: ['codex'] }, group(), false],
    ['no agent on the group', { agents: ['claude-code'] }, group({ agent: null }), false],
    ['every listed flag present', { flags: ['orphan', 'runaway'] }, group(), true],
    ['one listed flag missing', { flags: ['orphan', 'held-pipe'] }, group(), false],
    ['old enough', { flags: ['orphan'], minAgeSeconds: 3600 }, group(), true],
    ['too young', { flags: ['orphan'], minAgeSeconds: 3 * 3600 }, group(), false],
    [
      'CPU-seconds summed over members',
      { flags: ['orphan'], minCpuSeconds: 1500 },
      group({ processes: [proc(), proc({ pid: 502 })] }),
      true,
    ],
    ['not enough CPU-seconds', { flags: ['orphan'], minCpuSeconds: 1000 }, group(), false],
    ['enough memory', { flags: ['orphan'], minMemoryMegabytes: 300 }, group(), true],
    ['not enough memory', { flags: ['orphan'], minMemoryMegabytes: 301 }, group(), false],
    [
      'command pattern on any member',
      { flags: ['orphan'], commandPatterns: ['^sleep', 'vite'] },
      group(),
      true,
    ],
    ['command pattern on none', { flags: ['orphan'], commandPatterns: ['^tsc'] }, group(), false],
    [
      'sessionEnded with the session-ended flag',
      { sessionEnded: true },
      group({ flags: ['orphan', 'session-ended' as never] }),
      true,
    ],
    [
      'sessionEnded when the session reports its agent gone',
      { sessionEnded: true },
      group({ session: { id: 's', source: 'env', project: null, agentAlive: false } }),
      true,
    ],
    ['sessionEnded with no session information', { sessionEnded: true }, group(), false],
    [
      'sessionEnded while the agent lives',
      { sessionEnded: true },
      group({ session: { id: 's', source: 'env', project: null, agentAlive: true } }),
      false,
    ],
    [
      'a listened port on the group',
      { agents: ['claude-code'], ports: [5173] },
      group({ ports: [{ protocol: 'tcp', address: '127.0.0.1', port: 5173 }] }),
      true,
    ],
    [
      'a listened port on a member',
      { agents: ['claude-code'], ports: [3000, 5173] },
      group({ processes: [{ ...proc(), ports: [{ protocol: 'tcp', address: '0.0.0.0', port: 5173 }] }] }),
      true,
    ],
    ['no port information', { agents: ['claude-code'], ports: [5173] }, group(), false],
  ])('%s', (_name, match, g, expected) => {
    expect(matches(match, g)).toBe(expected);
  });

  it('a disabled rule matches nothing', () => {
    expect(matches({ flags: ['orphan'] }, group(), false)).toBe(false);
    expect(matches({ flags: ['orphan'] }, group(), true)).toBe(true);
  });

  it('matches a pattern at the end of a huge command line, bounded to its edges', () => {
    const command = `node ${'x'.repeat(2_000_000)} --port 5173 vite`;
    expect(
      matches({ flags: ['orphan'], commandPatterns: ['vite$'] }, group({ processes: [proc({ command })] })),
    ).toBe(true);
  });

  it('lists every matching rule in order', () => {
    const rules = [
      compileRule({ name: 'a', match: { flags: ['orphan'] }, action: 'notify' }),
      compileRule({ name: 'b', match: { agents: ['codex'] }, action: 'stop' }),
      compileRule({ name: 'c', match: { flags: ['runaway'] }, action: 'stop' }),
    ];
    expect(matchingRules(rules, group(), NOW).map((r) => r.rule.name)).toEqual(['a', 'c']);
  });
});
