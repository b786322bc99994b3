import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ClaudeTranscripts } from '../../main/core/provenance/claude-transcripts';
import { matchToolCall } from '../../main/core/provenance/match-tool-call';
import { removeDir } from '../support/spawned-groups';

// Recorded with the real Claude Code 2.1.197 by test/fixtures/claude/record-transcript.mts.
const FIXTURES = fileURLToPath(new URL('../fixtures/claude/', import.meta.url));
const facts = JSON.parse(readFileSync(join(FIXTURES, 'http-server-leftover.json'), 'utf8')) as {
  sessionId: string;
  sessionCwd: string;
  projectFolder: string;
  toolUseId: string;
  command: string;
  description: string;
  leftover: { argv: string[]; startedAt: number };
};

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

function configDirWithTranscript(): string {
  const config = mkdtempSync(join(tmpdir(), 'corral-claude-config-'));
  dirs.push(config);
  const folder = join(config, 'projects', facts.projectFolder);
  mkdirSync(folder, { recursive: true });
  copyFileSync(join(FIXTURES, 'http-server-leftover.jsonl'), join(folder, `${facts.sessionId}.jsonl`));
  return config;
}

describe('a transcript recorded with the real Claude Code', () => {
  it('is found under <config dir>/projects/<cwd with / as ->/<session id>.jsonl', () => {
    expect(facts.projectFolder).toBe(facts.sessionCwd.replace(/\//g, '-'));
    const config = configDirWithTranscript();
    expect(new ClaudeTranscripts().locate(config, facts.sessionId, facts.sessionCwd)).toBe(
      join(config, 'projects', facts.projectFolder, `${facts.sessionId}.jsonl`),
    );
  });

  it('yields the tool call that left the http.server: its id, command and the description the agent wrote', () => {
    const config = configDirWithTranscript();
    const transcripts = new ClaudeTranscripts();
    const path = transcripts.locate(config, facts.sessionId, facts.sessionCwd)!;
    const calls = transcripts.bashCalls(path, facts.leftover.startedAt - 2000);
    expect([...calls.keys()]).toEqual([facts.toolUseId]);
    const leftover = {
      processCommands: [facts.leftover.argv.join(' ')],
      startedAt: facts.leftover.startedAt,
    };
    // The tool-call shell exited before anyone looked: matched by time and command line.
    const byTime = matchToolCall(calls.values(), { ...leftover, wrapperCommand: null });
    expect(byTime).toMatchObject({
      id: facts.toolUseId,
      command: facts.command,
      description: facts.description,
    });
    expect(byTime!.issuedAt).toBeLessThanOrEqual(facts.leftover.startedAt);
    expect(byTime!.returnedAt).toBeGreaterThanOrEqual(facts.leftover.startedAt);
    // The shell still alive: its `eval '…'` names the call.
    expect(matchToolCall(calls.values(), { ...leftover, wrapperCommand: facts.command })?.id).toBe(
      facts.toolUseId,
    );
    expect(matchToolCall(calls.values(), { ...leftover, wrapperCommand: 'npm run dev' })).toBeNull();
  });
});
