import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GroupView } from '../../shared/model';
import { AgentMatcher } from '../../main/core/analysis/agent-matcher';
import { BUILTIN_SIGNATURES, PROVENANCE_ENV } from '../../main/core/analysis/signatures';
import { validateSettings } from '../../main/core/config/validate-settings';
import { readClaudeSessionFile } from '../../main/core/provenance/claude-session-files';
import { linkSessionsToAgents } from '../../main/core/provenance/session-links';
import {
  groupsOfSession,
  parsePort,
  resolvePortTargets,
  resolveSessionTargets,
} from '../../main/core/provenance/resolve-targets';
import { makeGroup, makeProcess } from '../renderer/support/fixtures';
import { removeDir } from '../support/spawned-groups';

const matcher = new AgentMatcher(BUILTIN_SIGNATURES, PROVENANCE_ENV);

describe('session ids from the environment (signature sessionEnv)', () => {
  it.each<[string, Record<string, string>, { sessionId: string; toolCallId: string | null } | null]>([
    [
      'claude-code',
      { CLAUDECODE: '1', CLAUDE_CODE_SESSION_ID: 'u-1' },
      { sessionId: 'u-1', toolCallId: null },
    ],
    [
      'codex',
      { CODEX_THREAD_ID: 't-1', CODEX_SESSION_ID: 's-1', CODEX_TOOL_CALL_ID: 'call_9' },
      { sessionId: 't-1', toolCallId: 'call_9' },
    ],
    ['codex', { CODEX_SESSION_ID: 's-1' }, { sessionId: 's-1', toolCallId: null }],
    ['qwen-code', { QWEN_CODE: '1', QWEN_CODE_SESSION_ID: 'q-1' }, { sessionId: 'q-1', toolCallId: null }],
    ['copilot', { COPILOT_AGENT_SESSION_ID: 'c-1' }, { sessionId: 'c-1', toolCallId: null }],
    ['goose', { AGENT_SESSION_ID: 'g-1' }, { sessionId: 'g-1', toolCallId: null }],
    ['opencode', { OPENCODE: '1', OPENCODE_PID: '4242' }, { sessionId: '4242', toolCallId: null }],
    // Another agent's markers inherited from an outer agent are not this agent's session.
    ['codex', { CLAUDE_CODE_SESSION_ID: 'u-1' }, null],
    ['claude-code', { CLAUDE_CODE_SESSION_ID: '' }, null],
    ['gemini-cli', { GEMINI_CLI: '1' }, null],
    ['no-such-agent', { CLAUDE_CODE_SESSION_ID: 'u-1' }, null],
  ])('%s with %o', (agent, markers, expected) => {
    expect(matcher.sessionOf(agent, markers)).toEqual(expected);
  });

  it('reads the session, tool-call and config-dir variables with the markers, and never attributes by them', () => {
    for (const k of ['CLAUDE_CODE_SESSION_ID', 'CODEX_TOOL_CALL_ID', 'AGENT_SESSION_ID', 'CLAUDE_CONFIG_DIR'])
      expect(matcher.markerKeys.has(k)).toBe(true);
    expect(matcher.markersOf({ AGENT_SESSION_ID: 'g-1' })).toBeNull();
    expect(matcher.markersOf({ CLAUDE_CONFIG_DIR: '/x' })).toBeNull();
  });

  it('config: sessionEnv and toolCallEnv in user signatures, provenance.transcripts, each bad value named', () => {
    const ok = validateSettings({
      agents: [{ name: 'mine', comm: ['mine'], sessionEnv: ['MINE_SESSION'], toolCallEnv: 'MINE_CALL' }],
      provenance: { transcripts: false },
    });
    expect(ok.errors).toEqual([]);
    expect(ok.settings.agents[0]).toMatchObject({ sessionEnv: ['MINE_SESSION'], toolCallEnv: 'MINE_CALL' });
    expect(ok.settings.provenance).toEqual({ transcripts: false });
    expect(validateSettings({}).settings.provenance).toEqual({ transcripts: true });
    const bad = validateSettings({
      agents: [{ name: 'mine', comm: ['mine'], sessionEnv: ['not a name'] }],
      provenance: { transcripts: 'yes', upload: true },
    });
    expect(bad.errors).toEqual([
      'provenance.upload: unknown key',
      'provenance.transcripts: expected true or false, got "yes"',
      'agents[0].sessionEnv: expected environment variable names',
    ]);
    expect(bad.settings.provenance).toEqual({ transcripts: true });
  });
});

describe('readClaudeSessionFile (the shape Claude Code 2.1.197 writes)', () => {
  it('names the session only for the process it was written by', () => {
    const config = mkdtempSync(join(tmpdir(), 'corral-claude-config-'));
    try {
      mkdirSync(join(config, 'sessions'));
      const file = (pid: number, body: unknown) =>
        writeFileSync(join(config, 'sessions', `${pid}.json`), JSON.stringify(body));
      file(42, {
        pid: 42,
        sessionId: 'c3d1',
        cwd: '/x',
        startedAt: 1,
        procStart: '201201',
        version: '2.1.197',
      });
      file(43, { pid: 44, sessionId: 'other-pid' });
      file(45, { pid: 45, sessionId: '' });
      writeFileSync(join(config, 'sessions', '46.json'), '{"pid": 46, "sessionId": "trunc');
      expect(readClaudeSessionFile(config, 42, 201201)).toBe('c3d1');
      expect(readClaudeSessionFile(config, 42, null)).toBe('c3d1');
      expect(readClaudeSessionFile(config, 42, 999)).toBeNull(); // a reused pid: another start time
      expect([43, 45, 46, 47].map((pid) => readClaudeSessionFile(config, pid, null))).toEqual([
        null,
        null,
        null,
        null,
      ]);
    } finally {
      removeDir(config);
    }
  });
});

describe('linkSessionsToAgents', () => {
  it('links by the agent itself first, then by the live agent a tool call names', () => {
    const links = linkSessionsToAgents([
      { pid: 10, sessionId: 's-file', isAgent: true, agentPid: 10 },
      { pid: 20, sessionId: null, isAgent: true, agentPid: 20 },
      { pid: 21, sessionId: 's-env', isAgent: false, agentPid: 20 },
      { pid: 22, sessionId: 's-file', isAgent: false, agentPid: 20 },
      { pid: 30, sessionId: 's-dead', isAgent: false, agentPid: 99 },
      { pid: 31, sessionId: 's-none', isAgent: false, agentPid: null },
    ]);
    expect(links).toEqual(
      new Map([
        ['s-file', 10],
        ['s-env', 20],
      ]),
    );
  });
});

const session = (id: string) => ({ id, source: 'env' as const, project: '/p', agentAlive: true });
const port = (n: number) => [{ protocol: 'tcp' as const, address: '127.0.0.1', port: n }];

describe('resolving --port and --session to groups', () => {
  const agentGroup = makeGroup({
    pgid: 100,
    agent: { name: 'claude-code', pid: 100 },
    containsAgent: true,
    session: { ...session('sess-aaaa-1'), source: 'lineage' },
  });
  const leftover = makeGroup({
    pgid: 200,
    agent: { name: 'claude-code', pid: 100 },
    session: session('sess-aaaa-1'),
    processes: [makeProcess({ pid: 201, pgid: 200, ports: port(3000) })],
  });
  const other = makeGroup({
    pgid: 300,
    agent: { name: 'codex', pid: null },
    session: session('sess-aaab-2'),
  });
  const plain = makeGroup({
    pgid: 400,
    processes: [makeProcess({ pid: 400, command: 'nginx', ports: port(8080) })],
  });
  const groups: GroupView[] = [agentGroup, leftover, other, plain];

  it('parses ports strictly', () => {
    expect(['1', '3000', '65535'].map(parsePort)).toEqual([1, 3000, 65535]);
    expect(['0', '65536', '30x', '', '-1', '003000000'].map(parsePort)).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it('--port: the holder; one no agent started only with --any-owner; none', () => {
    expect(resolvePortTargets(groups, 3000, false, 1000)).toEqual({
      groupIds: [leftover.id],
      skipped: [],
      refused: null,
    });
    expect(resolvePortTargets(groups, 8080, false, 1000).refused).toBe(
      'port 8080 is held by pid 400 (nginx), which no agent started; pass --any-owner to stop it anyway',
    );
    expect(resolvePortTargets(groups, 8080, true, 1000).groupIds).toEqual([plain.id]);
    expect(resolvePortTargets(groups, 9999, true, 1000).refused).toContain('listening on port 9999');
  });

  it("--port: another user's listener only with --any-owner, whatever agent it seems to be", () => {
    const forged = makeGroup({
      pgid: 500,
      agent: { name: 'claude-code', pid: null },
      processes: [
        makeProcess({ pid: 500, uid: 65534, command: 'python3 -m http.server', ports: port(3000) }),
      ],
    });
    const both = [...groups, forged];
    expect(resolvePortTargets(both, 3000, false, 1000)).toEqual({
      groupIds: [],
      skipped: [],
      refused:
        'port 3000 is held by pid 500 (python3 -m http.server) of another user (uid 65534); pass --any-owner to stop it anyway',
    });
    expect(resolvePortTargets(both, 3000, true, 1000).groupIds).toEqual([leftover.id, forged.id]);
    // Corral run as that user: its own listener.
    expect(resolvePortTargets([forged], 3000, false, 65534).groupIds).toEqual([forged.id]);
  });

  it("--session: every group but the agent's own; prefixes only when they name one session", () => {
    expect(resolveSessionTargets(groups, 'sess-aaaa-1')).toEqual({
      groupIds: [leftover.id],
      skipped: [{ groupId: agentGroup.id, reason: "the agent's own group" }],
      refused: null,
    });
    expect(groupsOfSession(groups, 'sess-aaaa')?.map((g) => g.pgid)).toEqual([100, 200]);
    expect(groupsOfSession(groups, 'sess-aaa')).toBeNull();
    expect(groupsOfSession(groups, 'sess')).toEqual([]);
    expect(resolveSessionTargets(groups, 'sess-aaa').refused).toContain('more than one session');
    expect(resolveSessionTargets([agentGroup], 'sess-aaaa-1').refused).toContain('no leftover groups');
  });
});
