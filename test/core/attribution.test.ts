import { describe, expect, it } from 'vitest';
import { AgentMatcher } from '../../main/core/analysis/agent-matcher';
import { attribute } from '../../main/core/analysis/attribution';
import { LineageMemory } from '../../main/core/analysis/lineage-memory';
import { BUILTIN_SIGNATURES } from '../../main/core/analysis/signatures';
import { rec } from './record-fixture';

const matcher = new AgentMatcher(BUILTIN_SIGNATURES);
const terminal = rec({ pid: 100, ppid: 1, name: 'bash', argv: ['-bash'], tty: 'pts/0' });
const agent = rec({ pid: 200, ppid: 100, pgid: 200, sid: 100, name: 'claude', argv: ['claude'] });

describe('attribute', () => {
  it('follows the live ancestry from the agent through a tool call', () => {
    const wrapper = rec({ pid: 300, ppid: 200, name: 'bash', argv: ['bash', '-c', 'npm run dev'] });
    const child = rec({ pid: 301, ppid: 300, pgid: 300, sid: 300, name: 'node' });
    const result = attribute([terminal, agent, wrapper, child], matcher);
    expect(result.get(200)).toMatchObject({ agent: 'claude-code', isAgent: true, agentPid: 200 });
    expect(result.get(301)).toMatchObject({ agent: 'claude-code', agentPid: 200, source: 'ancestry' });
    expect(result.has(100)).toBe(false);
  });

  it('uses environment markers for an orphan whose parents are gone', () => {
    const orphan = rec({
      pid: 400,
      ppid: 1,
      pgid: 390,
      sid: 390,
      markers: { CLAUDECODE: '1', CLAUDE_PID: '200' },
    });
    expect(attribute([orphan], matcher).get(400)).toMatchObject({
      agent: 'claude-code',
      agentPid: 200,
      source: 'env',
    });
  });

  it('uses lineage memory, keyed by pid and start, over everything else', () => {
    const memory = new LineageMemory();
    const orphan = rec({ pid: 500, ppid: 1 });
    memory.remember(
      '500@5000',
      {
        agent: 'codex',
        agentPid: 77,
        originPgid: 500,
        originSid: 500,
        originalPpid: 450,
        ancestry: [500, 450],
        firstSeenAt: 0,
      },
      true,
    );
    expect(attribute([orphan], matcher, memory).get(500)).toMatchObject({
      agent: 'codex',
      source: 'lineage',
    });
    // The same pid with another start time is another process: no inherited history.
    expect(
      attribute([rec({ pid: 500, startKey: 9999, pgid: 900, sid: 900 })], matcher, memory).has(500),
    ).toBe(false);
  });

  it('spreads to members of an attributed tool-call group and session, never to the terminal session', () => {
    const marked = rec({ pid: 600, pgid: 600, sid: 600, markers: { GEMINI_CLI: '1' } });
    const sameGroup = rec({ pid: 601, pgid: 600, sid: 600, ppid: 1 });
    const inTerminal = rec({ pid: 602, pgid: 602, sid: 100, ppid: 100, name: 'vim', argv: ['vim'] });
    const result = attribute([terminal, agent, marked, sameGroup, inTerminal], matcher);
    expect(result.get(601)).toMatchObject({ agent: 'gemini-cli', source: 'group' });
    expect(result.has(602)).toBe(false);
  });

  it('does not take a younger process with a reused pid for a parent', () => {
    const child = rec({ pid: 700, ppid: 710, startKey: 100 });
    const youngerImpostor = rec({ pid: 710, name: 'claude', argv: ['claude'], startKey: 500 });
    expect(attribute([child, youngerImpostor], matcher).has(700)).toBe(false);
  });

  it('survives a ppid cycle from a torn read', () => {
    const a = rec({ pid: 800, ppid: 801 });
    const b = rec({ pid: 801, ppid: 800 });
    expect(attribute([a, b], matcher).size).toBe(0);
  });
});
