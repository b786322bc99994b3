import { describe, expect, it } from 'vitest';
import { AgentMatcher } from '../../main/core/analysis/agent-matcher';
import { BUILTIN_SIGNATURES } from '../../main/core/analysis/signatures';
import { AGENT_NAMES } from '../../shared/model';

const matcher = new AgentMatcher(BUILTIN_SIGNATURES);

describe('built-in agent signatures (shapes from shared/AGENTS.md)', () => {
  it('has a signature for every documented agent name', () => {
    expect(BUILTIN_SIGNATURES.map((s) => s.name).sort()).toEqual([...AGENT_NAMES].sort());
  });

  it.each([
    ['claude', ['claude'], 'claude-code'],
    ['claude.exe', ['/home/u/.local/share/claude-code/bin/claude.exe'], 'claude-code'],
    ['node', ['node', '/usr/lib/node_modules/@openai/codex/bin/codex.js'], 'codex'],
    ['codex', ['/home/u/.codex/packages/0.171.0/bin/codex', 'app-server', '--managed-daemon'], 'codex'],
    [
      'node',
      ['node', '--max-old-space-size=8192', '/usr/lib/node_modules/@google/gemini-cli/bin/gemini'],
      'gemini-cli',
    ],
    ['opencode', ['opencode'], 'opencode'],
    ['node', ['node', '/usr/bin/qwen'], 'qwen-code'],
    ['MainThread', ['/home/u/.npm/copilot-linux-x64/copilot', '--banner'], 'copilot'],
    ['cursor-agent', ['cursor-agent'], 'cursor-agent'],
    ['python3', ['/usr/bin/python3', '/home/u/.local/bin/aider'], 'aider'],
    ['goose', ['goose', 'session'], 'goose'],
    ['node', ['node', '/usr/local/bin/amp'], 'amp'],
  ])('%s %j is %s', (name, argv, agent) => {
    expect(matcher.agentOf({ name, argv })).toBe(agent);
  });

  it.each([
    ['bash', ['bash', '-c', 'claude --help | grep x']],
    ['grep', ['grep', 'gemini', 'notes.txt']],
    ['goose', ['goose', 'postgres', 'up']],
    ['node', ['node', 'server.js']],
    ['sleep', ['sleep', '600']],
  ])('%s %j is no agent', (name, argv) => {
    expect(matcher.agentOf({ name, argv })).toBeNull();
  });

  it.each([
    [
      { CLAUDECODE: '1', CLAUDE_PID: '4242' },
      { agent: 'claude-code', agentPid: 4242 },
    ],
    [
      { CODEX_THREAD_ID: 'x', CODEX_TOOL_CALL_ID: 'call_1' },
      { agent: 'codex', agentPid: null },
    ],
    [{ GEMINI_CLI: '1' }, { agent: 'gemini-cli', agentPid: null }],
    [
      { OPENCODE: '1', OPENCODE_PID: '77' },
      { agent: 'opencode', agentPid: 77 },
    ],
    [
      { QWEN_CODE: '1', QWEN_CODE_LAUNCHER_PID: 'not-a-pid' },
      { agent: 'qwen-code', agentPid: null },
    ],
    [
      { COPILOT_CLI: '1', COPILOT_LOADER_PID: '9' },
      { agent: 'copilot', agentPid: 9 },
    ],
  ])('environment markers %j', (markers, expected) => {
    expect(matcher.markersOf(markers)).toEqual(expected);
  });

  it('reads no marker from an environment without one', () => {
    expect(matcher.markersOf({})).toBeNull();
  });

  it("recognises Claude Code's tool-call shell by its command line", () => {
    const argv = [
      '/bin/bash',
      '-c',
      "source /home/u/.claude/shell-snapshots/snapshot-bash-1.sh && eval 'npm run dev' < /dev/null && pwd -P >| /tmp/claude-3fa9-cwd",
    ];
    expect(matcher.toolCallOf(argv)).toBe('claude-code');
    expect(matcher.toolCallOf(['/bin/bash', '-c', 'npm run dev'])).toBeNull();
  });

  it('puts user signatures first, so they can claim a name before the built-ins', () => {
    const custom = new AgentMatcher([{ name: 'my-agent', comm: ['sleep'] }, ...BUILTIN_SIGNATURES]);
    expect(custom.agentOf({ name: 'sleep', argv: ['sleep', '1'] })).toBe('my-agent');
    expect(custom.markerKeys.has('CLAUDECODE')).toBe(true);
  });
});
