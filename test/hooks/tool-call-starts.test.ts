import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirRefused } from '../../main/core/storage/own-data-dir';
import { recordToolCallStart, takeToolCallStart } from '../../main/hooks/tool-call-starts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'corral-tool-calls-'));
  dirs.push(d);
  return d;
}

const key = { agent: 'claude-code', sessionId: 'session-1', callId: 'toolu_01' };

describe('the tool call starts the before-tool hook leaves for the after-tool hook', () => {
  it('hands a recorded start to the after-tool hook once', () => {
    const data = join(tempDir(), 'data');
    recordToolCallStart(data, key, { startKey: 1234, pidCursor: 99, at: 5678 });
    expect(takeToolCallStart(data, key)).toEqual({ startKey: 1234, pidCursor: 99, at: 5678 });
    expect(takeToolCallStart(data, key)).toBeNull();
    expect(readdirSync(join(data, 'hooks', 'tool-calls'))).toEqual([]);
  });

  it('finds nothing recorded without making the data directory or its folders', () => {
    const data = join(tempDir(), 'data');
    expect(takeToolCallStart(data, key)).toBeNull();
    expect(existsSync(data)).toBe(false);
  });

  it('still refuses a record reached through a link planted in the data directory', () => {
    const data = join(tempDir(), 'data');
    const elsewhere = tempDir();
    recordToolCallStart(elsewhere, key, { startKey: 1, pidCursor: null, at: 2 });
    mkdirSync(join(data, 'hooks'), { recursive: true, mode: 0o700 });
    symlinkSync(join(elsewhere, 'hooks', 'tool-calls'), join(data, 'hooks', 'tool-calls'));
    expect(() => takeToolCallStart(data, key)).toThrow(DataDirRefused);
    // Not taken: the record the link leads to is left where it is.
    expect(readdirSync(join(elsewhere, 'hooks', 'tool-calls'))).toHaveLength(1);
  });
});
