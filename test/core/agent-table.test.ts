import { describe, expect, it } from 'vitest';
import {
  AGENT_NAMES,
  AGENT_TABLE,
  HOOK_AGENT_NAMES,
  markersMeaning,
  type AgentEntry,
} from '../../shared/agents';

// The type refuses an entry missing a field: a new agent says what it has, `[]` or `null` for none.
// @ts-expect-error no `hooks`
const missingHooks: AgentEntry = { label: 'X', comm: [], commandPatterns: [], env: {}, toolCallPatterns: [] };
void missingHooks;

describe('the agent table (shared/agents.ts)', () => {
  it('names each agent once, with a label of its own', () => {
    expect(Object.keys(AGENT_TABLE)).toEqual([...AGENT_NAMES]);
    const labels = AGENT_NAMES.map((a) => AGENT_TABLE[a].label);
    expect(new Set(labels).size).toBe(labels.length);
  });

  it('gives an agent at most one pid marker and one tool-call id marker', () => {
    for (const agent of AGENT_NAMES) {
      expect(markersMeaning(agent, 'pid', 'pid-session').length, agent).toBeLessThanOrEqual(1);
      expect(markersMeaning(agent, 'tool-call-id').length, agent).toBeLessThanOrEqual(1);
    }
  });

  it('lists as hook agents exactly those with a hook spec, each telling its tool calls by a marker', () => {
    expect(HOOK_AGENT_NAMES).toEqual(AGENT_NAMES.filter((a) => AGENT_TABLE[a].hooks !== null));
    for (const agent of HOOK_AGENT_NAMES) {
      expect(markersMeaning(agent, 'tool-call').length, agent).toBeGreaterThan(0);
      // A settings directory named by a variable is one the agent keeps its files in.
      const dirEnv = AGENT_TABLE[agent].hooks.settings.dirEnv;
      if (dirEnv !== null) expect(markersMeaning(agent, 'files'), agent).toContain(dirEnv);
    }
  });
});
