import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { whyNotLinear } from '../../main/core/analysis/linear-pattern';
import { loadConfig } from '../../main/core/config/load-config';
import { validateSettings } from '../../main/core/config/validate-settings';
import { tempDirForTest } from '../support/spawned-groups';

const ISSUE_EXAMPLE = {
  policyMode: 'observe',
  policies: [
    {
      name: 'stop-orphaned-loops',
      match: { flags: ['orphan', 'runaway'], agents: ['claude-code'], minCpuSeconds: 600 },
      action: 'stop',
    },
    {
      name: 'ended-session-servers',
      match: { sessionEnded: true, minAgeSeconds: 3600 },
      action: 'stop',
      graceMs: 5000,
    },
    { name: 'big-memory', match: { flags: ['memory-hog'] }, action: 'notify' },
  ],
};

describe('policy configuration', () => {
  it("loads the issue's example as written, observe by default", () => {
    const { settings, errors } = validateSettings(ISSUE_EXAMPLE);
    expect(errors).toEqual([]);
    expect(settings.policyMode).toBe('observe');
    expect(settings.policies).toEqual(ISSUE_EXAMPLE.policies);
    expect(validateSettings({}).settings).toMatchObject({
      policyMode: 'observe',
      policies: [],
      memory: { groupMegabytes: 2048, windowSeconds: 60 },
    });
  });

  it.each<[string, unknown, string]>([
    [
      'no agents, flags or sessionEnded (PPID 1 alone)',
      { name: 'reap-all', match: { minAgeSeconds: 60 }, action: 'stop' },
      'policies[0] "reap-all" refused: match: needs at least one of agents, flags or sessionEnded',
    ],
    [
      'an empty match',
      { name: 'empty', match: {}, action: 'notify' },
      'policies[0] "empty" refused: match: needs at least one of agents, flags or sessionEnded',
    ],
    [
      'an unknown action',
      { name: 'nuke', match: { flags: ['orphan'] }, action: 'kill' },
      'policies[0] "nuke" refused: action: expected "notify" or "stop", got "kill"',
    ],
    [
      'an unknown flag',
      { name: 'typo', match: { flags: ['orphaned'] }, action: 'stop' },
      'policies[0] "typo" refused: match.flags: unknown flag "orphaned"',
    ],
    [
      'a backreference (RE2 cannot run it in linear time)',
      { name: 'backref', match: { flags: ['orphan'], commandPatterns: ['(a)\\1'] }, action: 'stop' },
      'policies[0] "backref" refused: match.commandPatterns: "(a)\\\\1" refused: RE2 cannot run it (invalid escape sequence: `\\1`); Corral accepts RE2 syntax, without backreferences or lookaround',
    ],
    [
      'a lookahead',
      { name: 'look', match: { flags: ['orphan'], commandPatterns: ['vite(?= --port)'] }, action: 'stop' },
      'policies[0] "look" refused: match.commandPatterns: "vite(?= --port)" refused: RE2 cannot run it (invalid or unsupported Perl syntax',
    ],
    [
      'an invalid regex',
      { name: 'broken', match: { flags: ['orphan'], commandPatterns: ['(unclosed'] }, action: 'stop' },
      'policies[0] "broken" refused: match.commandPatterns: "(unclosed" refused: RE2 cannot run it (missing closing )',
    ],
    [
      'a negative minimum',
      { name: 'neg', match: { agents: ['codex'], minCpuSeconds: -1 }, action: 'stop' },
      'policies[0] "neg" refused: match.minCpuSeconds: expected a number >= 0, got -1',
    ],
    [
      'a port out of range',
      { name: 'ports', match: { agents: ['codex'], ports: [70000] }, action: 'notify' },
      'policies[0] "ports" refused: match.ports: expected a non-empty list of port numbers',
    ],
    [
      'an unknown match key',
      { name: 'extra', match: { flags: ['orphan'], minCpu: 5 }, action: 'stop' },
      'policies[0] "extra" refused: match.minCpu: unknown key',
    ],
    ['no name', { match: { flags: ['orphan'] }, action: 'stop' }, 'policies[0].name: expected a name'],
  ])('refuses a rule with %s, naming it', (_what, rule, message) => {
    const good = { name: 'good', match: { flags: ['orphan'] }, action: 'notify' };
    const { settings, errors } = validateSettings({ policies: [rule, good] });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(message);
    // The rest loads: one bad rule loses nothing else.
    expect(settings.policies.map((p) => p.name)).toEqual(['good']);
  });

  it('refuses a duplicate name and a bad mode', () => {
    const rule = { name: 'twice', match: { flags: ['orphan'] }, action: 'notify' };
    const { settings, errors } = validateSettings({ policyMode: 'aggressive', policies: [rule, rule] });
    expect(errors).toEqual([
      'policyMode: expected "observe" or "enforce", got "aggressive"',
      'policies[1] "twice": another rule already has this name',
    ]);
    expect(settings.policyMode).toBe('observe');
    expect(settings.policies).toHaveLength(1);
  });

  it('names the file and the rule when loading a config file', () => {
    const path = join(tempDirForTest('corral-policy-'), 'config.json');
    writeFileSync(
      path,
      JSON.stringify({ policyMode: 'enforce', policies: [{ name: 'ppid1', match: {}, action: 'stop' }] }),
    );
    const loaded = loadConfig(path);
    expect(loaded.settings.policyMode).toBe('enforce');
    expect(loaded.settings.policies).toEqual([]);
    expect(loaded.errors).toHaveLength(1);
    expect(loaded.errors[0]).toContain(`${path}: policies[0] "ppid1" refused: match: needs at least one of`);
  });

  it('validates memory settings against their bounds', () => {
    const { settings, errors } = validateSettings({ memory: { groupMegabytes: 0, windowSeconds: 5 } });
    expect(errors).toEqual(['memory.groupMegabytes: 0 is outside 1..16777216']);
    expect(settings.memory).toEqual({ groupMegabytes: 2048, windowSeconds: 5 });
  });
});

describe('whyNotLinear (policy commandPatterns)', () => {
  it.each<[string, boolean]>([
    ['^node .*vite', true],
    ['(npm|pnpm) run dev', true],
    // Nested repetition is no danger on RE2's automata: accepted.
    ['(a+)+', true],
    ['(a*)*b', true],
    ['(.*x){2,}', true],
    ['(?<port>\\d+)', true],
    ['(a)\\1', false],
    ['x(?=y)', false],
    ['x(?!y)', false],
    ['(?<=x)y', false],
    ['(unclosed', false],
  ])('%s runs=%s', (pattern, runs) => {
    expect(whyNotLinear(pattern) === null).toBe(runs);
  });
});
