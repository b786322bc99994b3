import { describe, expect, it } from 'vitest';
import { AGENT_NAMES } from '../../shared/model';
import { agentLabel, flagLabel, kindLabel, knownAgents } from '../../main/metrics/labels';
import { FLAG_TABLE, INCIDENT_KINDS } from '../../shared/flags';

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

  // Issue 47: memory-hog, spawn-storm and session-ended were exported as flag="other".
  it.each(Object.keys(FLAG_TABLE))(
    'labels the flag %s with its own name (every flag of the one table)',
    (flag) => {
      expect(flagLabel(flag)).toBe(flag);
    },
  );

  it('labels every incident kind with its own name, and every flag that makes an incident is a kind', () => {
    for (const kind of INCIDENT_KINDS) expect(kindLabel(kind)).toBe(kind);
    const kinds = Object.entries(FLAG_TABLE)
      .filter(([, e]) => e.incident)
      .map(([f]) => f);
    expect(kinds).toEqual([...INCIDENT_KINDS]);
    expect(kinds).toEqual(['orphan', 'leaderless', 'runaway', 'held-pipe', 'memory-hog', 'spawn-storm']);
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
