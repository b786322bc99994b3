import { RE2JS } from 're2js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentMatcher } from '../../main/core/analysis/agent-matcher';
import { BUILTIN_SIGNATURES } from '../../main/core/analysis/signatures';

// Any local program chooses its own command line, up to ARG_MAX (2 MB here). Corral matches every
// process's command line against the agent signatures on every snapshot, in the one thread that also
// runs the monitor loop: a line built to make a pattern backtrack must not stall it. The bound is the
// behaviour asserted here (only the first and last 4 KB reach a pattern); its cost belongs to the bench.
const HOSTILE_BYTES = 200_000;
const EDGE = 4096;
/** The first EDGE characters, a space, the last EDGE: the longest text a pattern may be run on. */
const LONGEST_MATCHED = 2 * EDGE + 1;

afterEach(() => {
  vi.restoreAllMocks();
});

/** Lengths of every string a signature's pattern (RE2, linear-time) was run on during `run`. */
function matchedLengths(run: () => void): number[] {
  const lengths: number[] = [];
  const test = RE2JS.prototype.test;
  vi.spyOn(RE2JS.prototype, 'test').mockImplementation(function (
    this: RE2JS,
    input: Parameters<RE2JS['test']>[0],
  ) {
    lengths.push(input.length);
    return test.call(this, input);
  });
  run();
  vi.restoreAllMocks();
  return lengths;
}

describe('agent signatures against a hostile 200 KB command line', () => {
  it.each([
    '/.codex/packages/',
    '/cursor-agent/',
    'copilot-linux-x64/',
    'goose ',
    '.claude/shell-snapshots/',
    '/claude-code/bin/claude',
  ])('a command line repeating %j reaches the patterns only as its first and last 4 KB', (unit) => {
    const matcher = new AgentMatcher(BUILTIN_SIGNATURES);
    const arg = unit.repeat(Math.ceil(HOSTILE_BYTES / unit.length)).slice(0, HOSTILE_BYTES);
    const record = {
      name: 'hold',
      argv: ['hold', arg.slice(0, HOSTILE_BYTES / 2), arg.slice(HOSTILE_BYTES / 2)],
    };
    const lengths = matchedLengths(() => {
      matcher.agentOf(record);
      matcher.toolCallOf(record.argv);
    });
    expect(lengths.length).toBeGreaterThan(0);
    expect(Math.max(...lengths)).toBe(LONGEST_MATCHED);
  });
});

describe('a long command line is matched on its first and last 4 KB', () => {
  const matcher = new AgentMatcher(BUILTIN_SIGNATURES);
  // Claude's tool-call marker: the `-cwd` file that ends the wrapper's command line.
  const marker = '/tmp/claude-3f0e5a52-cwd';
  const filler = (n: number): string => 'x'.repeat(n);
  const wrapper = (...parts: string[]): string[] => ['/bin/bash', '-c', parts.join(' ')];

  it('finds the marker in the last 4 KB, as Claude writes it', () => {
    expect(matcher.toolCallOf(wrapper(filler(HOSTILE_BYTES), 'pwd -P >|', marker))).toBe('claude-code');
  });

  it('finds the marker in the first 4 KB', () => {
    expect(matcher.toolCallOf(wrapper('pwd -P >|', marker, filler(HOSTILE_BYTES)))).toBe('claude-code');
  });

  it('does not look between them: a marker more than 4 KB from both ends is not seen', () => {
    const argv = wrapper(filler(EDGE + 100), 'pwd -P >|', marker, filler(EDGE + 100));
    expect(matcher.toolCallOf(argv)).toBeNull();
    // The same line short enough to be read whole is matched: the bound, not the marker, decides.
    expect(matcher.toolCallOf(wrapper(filler(EDGE - 100), 'pwd -P >|', marker, filler(EDGE - 100)))).toBe(
      'claude-code',
    );
  });
});
