// Codex's PostToolUse carries no duration_ms; its transcript says when the model's function call was
// written, before the command started (recorded with the real Codex 0.171.0: test/fixtures/codex/).
import { spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { codexFunctionCallAt, toolDurationMs } from '../../main/hooks/tool-duration';
import { tempDirsRemovedAfterEach } from '../support/temp-dirs';

const FIXTURES = fileURLToPath(new URL('../fixtures/codex/', import.meta.url));
const ROLLOUT = join(FIXTURES, 'rollout-2026-11-30T18-02-37-01a22d9f-7ee7-7e92-9956-73056e14f01f.jsonl');
/** The fixture's function_call line for call_fake0001; its command started 165 ms later (item_completed's started_at_ms). */
const FUNCTION_CALL_AT = Date.parse('2026-11-30T18:02:37.823Z');
const tempDir = tempDirsRemovedAfterEach();

describe("a Codex call's duration from its transcript", () => {
  it('is the time since the function call was written, at or before the command began', () => {
    expect(codexFunctionCallAt(ROLLOUT, 'call_fake0001')).toBe(FUNCTION_CALL_AT);
    const started = /"started_at_ms":(\d+),"completed_at_ms":\d+\}\}\n?$/m.exec(
      readFileSync(ROLLOUT, 'utf8')
        .split('\n')
        .find((l) => l.includes('"item_completed"') && l.includes('call_fake0001'))!,
    );
    expect(Number(started![1])).toBeGreaterThanOrEqual(FUNCTION_CALL_AT);
    const payload = JSON.parse(readFileSync(join(FIXTURES, '0.171.0', 'hook-PostToolUse.json'), 'utf8')) as {
      tool_use_id: string;
      duration_ms?: unknown;
    };
    expect(payload.duration_ms).toBeUndefined();
    const hook = { ...payload, tool_use_id: 'call_fake0001', transcript_path: ROLLOUT };
    expect(toolDurationMs('codex', hook, FUNCTION_CALL_AT + 2_500)).toBe(2_500);
  });

  it('finds the latest line of that call among many, and only a function_call of that very id', () => {
    const dir = tempDir('corral-codex-transcript-');
    const path = join(dir, 'rollout.jsonl');
    copyFileSync(ROLLOUT, path);
    const line = (id: string, type: string, at: string): string =>
      `${JSON.stringify({ timestamp: at, type: 'response_item', payload: { type, call_id: id, name: 'exec_command' } })}\n`;
    appendFileSync(path, line('call_fake00012', 'function_call', '2026-11-30T18:09:00.000Z'));
    appendFileSync(path, line('call_fake0001', 'function_call_output', '2026-11-30T18:09:01.000Z'));
    // A megabyte of other lines after it: the call's line is still within the tail read.
    appendFileSync(
      path,
      `${JSON.stringify({ type: 'event_msg', payload: { text: 'x'.repeat(900_000) } })}\n`,
    );
    expect(codexFunctionCallAt(path, 'call_fake0001')).toBe(FUNCTION_CALL_AT);
    expect(codexFunctionCallAt(path, 'call_fake00012')).toBe(Date.parse('2026-11-30T18:09:00.000Z'));
    expect(codexFunctionCallAt(path, 'call_absent')).toBeNull();
  });

  it('says nothing for a missing, unreadable or special transcript (a FIFO never blocks), and never for another agent', () => {
    const dir = tempDir('corral-codex-transcript-');
    const garbage = join(dir, 'garbage.jsonl');
    writeFileSync(garbage, Buffer.from([0xff, 0xfe, 0x00, 0x0a, 0x7b]));
    const at = Date.now();
    // A FIFO no one writes to: opening it as a plain file would wait for a writer, forever.
    const fifo = join(dir, 'fifo.jsonl');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    for (const transcript_path of [join(dir, 'missing.jsonl'), dir, garbage, fifo, 42]) {
      expect(toolDurationMs('codex', { tool_use_id: 'call_fake0001', transcript_path }, at)).toBeUndefined();
    }
    expect(toolDurationMs('codex', { transcript_path: ROLLOUT }, at)).toBeUndefined();
    // Claude Code's own duration_ms wins; its transcript is never read for this.
    expect(
      toolDurationMs(
        'claude-code',
        { duration_ms: 40, transcript_path: ROLLOUT, tool_use_id: 'call_fake0001' },
        at,
      ),
    ).toBe(40);
    expect(
      toolDurationMs('claude-code', { transcript_path: ROLLOUT, tool_use_id: 'call_fake0001' }, at),
    ).toBeUndefined();
  });
});
