import { appendFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ClaudeTranscripts } from '../../main/core/provenance/claude-transcripts';
import { matchToolCall } from '../../main/core/provenance/match-tool-call';
import type { TranscriptCall } from '../../main/core/provenance/claude-transcript-records';
import { removeDir } from '../support/spawned-groups';

const T0 = Date.UTC(2026, 10, 30, 12, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();
const use = (id: string, at: number, command: string, description?: string) =>
  JSON.stringify({
    type: 'assistant',
    timestamp: iso(at),
    sessionId: 's',
    message: { content: [{ type: 'tool_use', id, name: 'Bash', input: { command, description } }] },
  });
const result = (id: string, at: number) =>
  JSON.stringify({
    type: 'user',
    timestamp: iso(at),
    message: { content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] },
  });
// A record with no tool call, as big as real ones with long outputs get.
const filler = (at: number) =>
  JSON.stringify({
    type: 'assistant',
    timestamp: iso(at),
    message: { content: [{ type: 'text', text: 'x'.repeat(10_000) }] },
  });

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'corral-transcript-'));
  dirs.push(d);
  return d;
}

describe('ClaudeTranscripts', () => {
  it('finds the transcript under its project folder, or by a scan when the cwd moved', () => {
    const config = tempDir();
    const project = join(config, 'projects', '-home-me-shop');
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, 'abc-123.jsonl'), `${use('toolu_1', T0, 'ls')}\n`);
    const t = new ClaudeTranscripts();
    expect(t.locate(config, 'abc-123', '/home/me/shop')).toBe(join(project, 'abc-123.jsonl'));
    expect(t.locate(config, 'abc-123', '/home/me/shop/web')).toBe(join(project, 'abc-123.jsonl'));
    expect(t.locate(config, 'nope', '/home/me/shop')).toBeNull();
    expect(t.locate(config, '../../etc/passwd', null)).toBeNull();
  });

  it('reads from the end, reaches back only as far as asked, and pairs results read before their calls', () => {
    const path = join(tempDir(), 't.jsonl');
    const lines = [use('toolu_old', T0, 'make build', 'Build')];
    for (let i = 1; i <= 200; i++) lines.push(filler(T0 + i * 1000)); // ~2 MB
    lines.push(use('toolu_dev', T0 + 300_000, 'npm run dev &', 'Start the dev server'));
    for (let i = 1; i <= 40; i++) lines.push(filler(T0 + 300_000 + i)); // ~400 KB: past one chunk
    lines.push(result('toolu_dev', T0 + 301_000));
    lines.push(result('toolu_old', T0 + 302_000));
    writeFileSync(path, `${lines.join('\n')}\n`);

    const t = new ClaudeTranscripts(1024 * 1024);
    const recent = t.bashCalls(path, T0 + 299_000);
    expect([...recent.keys()]).toEqual(['toolu_dev']);
    expect(recent.get('toolu_dev')).toEqual({
      id: 'toolu_dev',
      command: 'npm run dev &',
      description: 'Start the dev server',
      issuedAt: T0 + 300_000,
      returnedAt: T0 + 301_000,
    });
    // Older than the byte budget reaches: not read, rather than the whole file.
    expect(t.bashCalls(path, T0).has('toolu_old')).toBe(false);
    const unbounded = new ClaudeTranscripts(64 * 1024 * 1024).bashCalls(path, T0);
    expect(unbounded.get('toolu_old')).toMatchObject({ command: 'make build', returnedAt: T0 + 302_000 });
  });

  it('reads what was appended since, and leaves a half-written record for later', () => {
    const path = join(tempDir(), 't.jsonl');
    writeFileSync(path, `${use('toolu_1', T0, 'ls')}\n`);
    const t = new ClaudeTranscripts();
    expect(t.bashCalls(path, T0).size).toBe(1);
    const next = use('toolu_2', T0 + 5000, 'sleep 600 &');
    appendFileSync(path, `${result('toolu_1', T0 + 1000)}\n${next.slice(0, 40)}`);
    expect(t.bashCalls(path, T0).get('toolu_1')?.returnedAt).toBe(T0 + 1000);
    expect(t.bashCalls(path, T0).has('toolu_2')).toBe(false);
    appendFileSync(path, `${next.slice(40)}\n`);
    expect(t.bashCalls(path, T0).get('toolu_2')?.command).toBe('sleep 600 &');
  });

  it('skips lines that are not JSON or not Bash calls', () => {
    const path = join(tempDir(), 't.jsonl');
    const read = JSON.stringify({
      type: 'assistant',
      timestamp: iso(T0),
      message: { content: [{ type: 'tool_use', id: 'toolu_r', name: 'Read', input: { file_path: '/x' } }] },
    });
    writeFileSync(
      path,
      `not json "tool_use"\n${read}\n{"type":"assistant","message":{"content":"tool_use"}}\n`,
    );
    expect(new ClaudeTranscripts().bashCalls(path, 0).size).toBe(0);
  });
});

const call = (id: string, issuedAt: number, returnedAt: number | null, command: string): TranscriptCall => ({
  id,
  command,
  description: null,
  issuedAt,
  returnedAt,
});

describe('matchToolCall', () => {
  const calls = [
    call('a', T0, T0 + 500, 'npm test'),
    call('b', T0 + 10_000, T0 + 11_000, 'python3 -m http.server 8000 &'),
    call('c', T0 + 10_200, T0 + 12_000, 'sleep 600 &'),
    call('d', T0 + 60_000, null, 'npm run dev'),
  ];
  const facts = (startedAt: number, processCommands: string[], wrapperCommand: string | null = null) => ({
    startedAt,
    processCommands,
    wrapperCommand,
  });

  it.each([
    ['the wrapper command decides', facts(T0 + 10_300, ['sleep 600'], 'sleep 600 &'), 'c'],
    ['a wrapper command that no call issued before has no match', facts(T0 + 5000, [], 'sleep 600 &'), null],
    ['one call running at the start', facts(T0 + 200, ['vitest']), 'a'],
    ['two running: the one naming the leftover', facts(T0 + 10_500, ['python3 -m http.server 8000']), 'b'],
    ['two running and neither named: no guess', facts(T0 + 10_500, ['node worker.js']), null],
    ['still running (no result yet)', facts(T0 + 70_000, ['node next dev']), 'd'],
    ['none running: the latest that names it', facts(T0 + 30_000, ['sleep 600']), 'c'],
    ['none running, none named', facts(T0 + 30_000, ['cat']), null],
    ['before any call', facts(T0 - 60_000, ['npm test']), null],
  ])('%s', (_what, leftover, expected) => {
    expect(matchToolCall(calls, leftover)?.id ?? null).toBe(expected);
  });
});
