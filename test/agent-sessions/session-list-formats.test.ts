import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLAUDE_CODE_SESSIONS } from '../../main/core/agent-sessions/claude-code';
import { QWEN_CODE_SESSIONS } from '../../main/core/agent-sessions/qwen-code';

const bg = (name: string): string =>
  readFileSync(new URL(`../fixtures/claude/2.1.332/bg/${name}`, import.meta.url), 'utf8');
const qwen = (name: string): string =>
  readFileSync(new URL(`../fixtures/qwen/0.24.4/${name}`, import.meta.url), 'utf8');

describe("Claude Code 2.1.332's `claude agents --json --all`, as recorded", () => {
  it('a session starting (no pid yet), busy, idle: running, with its name, kind, status and state', () => {
    expect(CLAUDE_CODE_SESSIONS.parse(bg('agents-starting.json'))).toEqual([
      expect.objectContaining({ pid: null, name: 'Sleep a while', kind: 'background', ended: false }),
    ]);
    expect(CLAUDE_CODE_SESSIONS.parse(bg('agents-busy.json'))).toEqual([
      {
        agent: 'claude-code',
        sessionId: '9488d5a7-000d-4434-b1cf-422d6b27d35f',
        pid: 74,
        name: 'Sleep a while',
        kind: 'background',
        status: 'busy',
        state: 'working',
        ended: false,
      },
    ]);
    expect(CLAUDE_CODE_SESSIONS.parse(bg('agents-all-idle.json'))).toEqual([
      expect.objectContaining({ pid: 74, name: 'ok', status: 'idle', ended: false }),
    ]);
  });

  it('after `claude stop`: `--all` names it stopped (ended); the active list is empty', () => {
    expect(CLAUDE_CODE_SESSIONS.parse(bg('agents-all-after-stop.json'))).toEqual([
      expect.objectContaining({
        sessionId: '9488d5a7-000d-4434-b1cf-422d6b27d35f',
        state: 'stopped',
        ended: true,
      }),
    ]);
    expect(CLAUDE_CODE_SESSIONS.parse(bg('agents-after-stop.json'))).toEqual([]);
  });

  it('a changed format is a problem to note, not sessions', () => {
    expect(CLAUDE_CODE_SESSIONS.parse('{"sessions": []}')).toEqual({ problem: 'not a JSON array' });
    expect(CLAUDE_CODE_SESSIONS.parse('[{"session": "x"}]')).toEqual({
      problem: 'an entry without a sessionId',
    });
    expect(CLAUDE_CODE_SESSIONS.parse('Usage: claude agents')).toHaveProperty('problem');
  });

  it("is run only with Claude Code's own binary", () => {
    const npm = '/x/node_modules/@anthropic-ai/claude-code/bin/claude.exe';
    expect(CLAUDE_CODE_SESSIONS.command({ exe: npm, argv: ['claude'] })).toEqual({
      file: npm,
      args: ['agents', '--json', '--all'],
    });
    expect(
      CLAUDE_CODE_SESSIONS.command({ exe: '/home/u/.local/share/claude/versions/2.1.332', argv: [] }),
    ).not.toBeNull();
    expect(CLAUDE_CODE_SESSIONS.command({ exe: '/usr/bin/python3', argv: ['claude'] })).toBeNull();
  });
});

describe("Qwen Code 0.24.4's `qwen sessions ps --json`", () => {
  it('JSON Lines, one registry record a line; nothing with none running', () => {
    expect(QWEN_CODE_SESSIONS.parse(qwen('sessions-ps.jsonl'))).toEqual([
      expect.objectContaining({ agent: 'qwen-code', kind: 'tui', ended: false }),
    ]);
    expect(QWEN_CODE_SESSIONS.parse('')).toEqual([]);
    expect(QWEN_CODE_SESSIONS.parse('No Qwen Code sessions are registered right now.\n')).toHaveProperty(
      'problem',
    );
  });

  it("runs only Qwen Code's own entry script again, under the agent's Node", () => {
    const node = '/usr/bin/node';
    const script = '/x/node_modules/@qwen-code/qwen-code/cli.js';
    expect(
      QWEN_CODE_SESSIONS.command({ exe: node, argv: [node, '--max-old-space-size=8192', script] }),
    ).toEqual({
      file: node,
      args: [script, 'sessions', 'ps', '--json'],
    });
    expect(QWEN_CODE_SESSIONS.command({ exe: node, argv: [node, '/tmp/fake-agent.mjs'] })).toBeNull();
  });
});
