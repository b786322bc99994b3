import { describe, expect, it } from 'vitest';
import { AgentMatcher } from '../../main/core/analysis/agent-matcher';
import { BUILTIN_SIGNATURES } from '../../main/core/analysis/signatures';

// Any local program chooses its own command line, up to ARG_MAX (2 MB here). Corral matches every
// process's command line against the agent signatures on every snapshot, in the one thread that also
// runs the monitor loop: a line built to make a pattern backtrack must not stall it.
const HOSTILE_BYTES = 200_000;
const BUDGET_MS = 250;

describe('agent signatures against a hostile 200 KB command line', () => {
  it.each([
    '/.codex/packages/',
    '/cursor-agent/',
    'goose ',
    '.claude/shell-snapshots/',
    '/claude-code/bin/claude',
  ])('a command line repeating %j is matched within the budget', (unit) => {
    const matcher = new AgentMatcher(BUILTIN_SIGNATURES);
    const arg = unit.repeat(Math.ceil(HOSTILE_BYTES / unit.length)).slice(0, HOSTILE_BYTES);
    const record = {
      name: 'hold',
      argv: ['hold', arg.slice(0, HOSTILE_BYTES / 2), arg.slice(HOSTILE_BYTES / 2)],
    };
    const started = performance.now();
    matcher.agentOf(record);
    matcher.toolCallOf(record.argv);
    expect(performance.now() - started).toBeLessThan(BUDGET_MS);
  });
});
