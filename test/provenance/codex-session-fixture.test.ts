import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { ListeningPort } from '../../shared/model';
import { AgentMatcher } from '../../main/core/analysis/agent-matcher';
import { attribute } from '../../main/core/analysis/attribution';
import { buildGroups } from '../../main/core/analysis/grouping';
import { BUILTIN_SIGNATURES, PROVENANCE_ENV } from '../../main/core/analysis/signatures';
import { Provenance } from '../../main/core/provenance/add-provenance';
import { locateCodexSession } from '../../main/core/provenance/codex-session-files';
import { collectCodexCalls } from '../../main/core/provenance/codex-session-records';
import type { TranscriptCall } from '../../main/core/provenance/claude-transcript-records';
import { rec } from '../core/record-fixture';
import { removeDir } from '../support/spawned-groups';

// Recorded with the real Codex CLI 0.171.0 (`codex exec`) against the local Responses API stand-in
// in test/fixtures/codex/record-fake-responses-api.mjs, which asked for one exec_command call.
const FIXTURES = fileURLToPath(new URL('../fixtures/codex/', import.meta.url));
const FILE = 'rollout-2026-11-30T18-02-37-01a22d9f-7ee7-7e92-9956-73056e14f01f.jsonl';
const THREAD = '01a22d9f-7ee7-7e92-9956-73056e14f01f';
const CALL = 'call_fake0001';
const COMMAND = 'sleep 600 & echo started';
const ISSUED_AT = Date.parse('2026-11-30T18:02:37.823Z');
const RETURNED_AT = Date.parse('2026-11-30T18:02:38.064Z');

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

/** A CODEX_HOME holding the recorded file where Codex wrote it: sessions/YYYY/MM/DD/. */
function codexHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'corral-codex-home-'));
  dirs.push(home);
  const day = join(home, 'sessions', '2026', '11', '30');
  mkdirSync(day, { recursive: true });
  copyFileSync(join(FIXTURES, FILE), join(day, FILE));
  return home;
}

describe('a session file recorded with the real Codex CLI', () => {
  it('is found from the thread id alone (a UUIDv7: its day folder, not a tree walk)', () => {
    const home = codexHome();
    expect(locateCodexSession(home, THREAD)).toBe(join(home, 'sessions', '2026', '11', '30', FILE));
    expect(locateCodexSession(home, THREAD.toUpperCase())).toBe(
      join(home, 'sessions', '2026', '11', '30', FILE),
    );
    expect(locateCodexSession(home, '01a22d9f-7ee7-7e92-9956-000000000000')).toBeNull();
    expect(locateCodexSession(home, '../../etc/passwd')).toBeNull();
  });

  it('names the call by its call_id (CODEX_TOOL_CALL_ID) with the command; Codex writes no description', () => {
    const calls = new Map<string, TranscriptCall>();
    collectCodexCalls(readFileSync(join(FIXTURES, FILE), 'utf8').split('\n'), calls);
    expect([...calls.values()]).toEqual([
      { id: CALL, command: COMMAND, description: null, issuedAt: ISSUED_AT, returnedAt: RETURNED_AT },
    ]);
  });

  it('skips lines that are not its records, and calls to other tools', () => {
    const calls = new Map<string, TranscriptCall>();
    const record = (payload: object) =>
      JSON.stringify({ timestamp: '2026-11-30T18:02:37.823Z', type: 'response_item', payload });
    collectCodexCalls(
      [
        '{not json "function_call',
        record({ type: 'function_call', name: 'view_image', call_id: 'c1', arguments: '{"path":"/x"}' }),
        record({ type: 'function_call', name: 'exec_command', call_id: 'c2', arguments: 'not json' }),
        record({ type: 'function_call', name: 'exec_command', call_id: 'c3', arguments: '{"cmd":""}' }),
        JSON.stringify({ type: 'event_msg', payload: { type: 'function_call', call_id: 'c4' } }),
      ],
      calls,
    );
    expect(calls.size).toBe(0);
  });

  it('gives a Codex leftover its toolCall through Provenance, found by the id in its environment', () => {
    const home = codexHome();
    const env = {
      CODEX_THREAD_ID: THREAD,
      CODEX_SESSION_ID: THREAD,
      CODEX_TOOL_CALL_ID: CALL,
      CODEX_HOME: home,
      CODEX_CI: '1',
    };
    const matcher = new AgentMatcher(BUILTIN_SIGNATURES, PROVENANCE_ENV);
    const records = [
      rec({ pid: 100, name: 'codex', argv: ['/opt/codex/bin/codex', 'exec', 'Start a long sleep'] }),
      // The tool-call shell has exited: only the sleep it left is there, adopted by init.
      rec({
        pid: 201,
        ppid: 1,
        pgid: 200,
        sid: 200,
        name: 'sleep',
        argv: ['sleep', '600'],
        markers: env,
        startedAt: ISSUED_AT + 40,
      }),
    ];
    const attributions = attribute(records, matcher);
    const sampler = {
      platform: 'linux' as const,
      readCwd: (pids: Iterable<number>) => new Map([...pids].map((pid) => [pid, '/home/me/shop'])),
      listeningPorts: (pids: Iterable<number>) =>
        new Map([...pids].map((pid): [number, ListeningPort[]] => [pid, []])),
    };
    const build = () => {
      const groups = buildGroups(records, attributions, () => ({ cpuPercent: null, flags: [] }));
      for (const g of groups) g.startedAt = Math.min(...g.processes.map((p) => p.startedAt));
      return groups;
    };

    const on = build();
    new Provenance({ transcripts: true }).addTo(on, { records, attributions, matcher, sampler });
    const leftover = on.find((g) => g.pgid === 200)!;
    expect(leftover.agent?.name).toBe('codex');
    expect(leftover.session).toMatchObject({ id: THREAD, source: 'env' });
    expect(leftover.toolCall).toEqual({
      id: CALL,
      command: COMMAND,
      description: null,
      startedAt: ISSUED_AT,
    });

    // The setting off: the id from the environment, the command from the process, no file read.
    const off = build();
    new Provenance({ transcripts: false }).addTo(off, { records, attributions, matcher, sampler });
    expect(off.find((g) => g.pgid === 200)!.toolCall).toMatchObject({ id: CALL, command: 'sleep 600' });
  });
});
