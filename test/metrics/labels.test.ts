import { describe, expect, it } from 'vitest';
import { AGENT_NAMES } from '../../shared/model';
import { agentLabel, flagLabel, kindLabel, knownAgents } from '../../main/metrics/labels';

describe('metric labels stay bounded', () => {
  const known = knownAgents([{ name: 'my-agent' }]);
  it.each([
    [null, 'none'],
    [undefined, 'none'],
    ['claude-code', 'claude-code'],
    ['my-agent', 'my-agent'],
    ['4242', 'other'],
    ['/usr/bin/sleep 600', 'other'],
  ])('agent %j → %j', (name, label) => {
    expect(agentLabel(name, known)).toBe(label);
  });

  it('knows every built-in agent', () => {
    for (const name of AGENT_NAMES) expect(agentLabel(name, knownAgents([]))).toBe(name);
  });

  it.each([
    ['orphan', 'orphan'],
    ['held-pipe', 'held-pipe'],
    ['escaped', 'other'],
  ])('flag %j → %j', (flag, label) => {
    expect(flagLabel(flag)).toBe(label);
  });

  it.each([
    ['runaway', 'runaway'],
    ['leaderless', 'leaderless'],
    [42, 'other'],
    [undefined, 'other'],
  ])('incident kind %j → %j', (kind, label) => {
    expect(kindLabel(kind)).toBe(label);
  });
});
