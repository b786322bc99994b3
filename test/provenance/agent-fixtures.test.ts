import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { collectBashCalls, type TranscriptCall } from '../../main/core/provenance/claude-transcript-records';
import { collectQwenCalls } from '../../main/core/provenance/qwen-chat-records';
import { HOOK_AGENT_SPECS, type HookAgent } from '../../main/core/hooks-setup/hook-agents';

// Recorded from the real CLIs by test/fixtures/record-agent-fixtures.mts (one per supported release).
const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const read = (path: string) => readFileSync(join(FIXTURES, path), 'utf8');
const json = (path: string) => JSON.parse(read(path)) as Record<string, unknown>;

interface Recording {
  agent: HookAgent;
  dir: string;
  /** How Corral reads tool calls out of this agent's transcript; none for Gemini CLI (no session marker). */
  collect?: typeof collectBashCalls;
}

const RECORDINGS: Recording[] = [
  { agent: 'claude-code', dir: 'claude/2.1.332', collect: collectBashCalls },
  { agent: 'qwen-code', dir: 'qwen/0.24.4', collect: collectQwenCalls },
  { agent: 'gemini-cli', dir: 'gemini/0.61.0' },
  // The same call started in the background on purpose (`record-agent-fixtures.mts background`).
  { agent: 'claude-code', dir: 'claude/2.1.332/background', collect: collectBashCalls },
  { agent: 'qwen-code', dir: 'qwen/0.24.4/background', collect: collectQwenCalls },
];

describe.each(RECORDINGS)('$dir, as the real CLI wrote it', ({ agent, dir, collect }) => {
  const facts = json(`${dir}/facts.json`) as {
    toolUseId?: string;
    callId?: string;
    command: string;
    description: string;
    /** Started with Claude Code's `run_in_background: true` / Qwen Code's `is_background: true`. */
    background?: boolean;
  };

  it.skipIf(!collect)(
    'the transcript gives the shell call: id, command, description, issued and returned',
    () => {
      const calls = new Map<string, TranscriptCall>();
      collect!(read(`${dir}/transcript.jsonl`).split('\n'), calls);
      const id = facts.toolUseId ?? facts.callId!;
      expect([...calls.keys()]).toEqual([id]);
      const call = calls.get(id)!;
      expect(call).toMatchObject({ command: facts.command, description: facts.description });
      // Only a call the agent started in the background on purpose says so.
      expect(call.background).toBe(facts.background === true ? true : undefined);
      expect(call.returnedAt).toBeGreaterThanOrEqual(call.issuedAt);
    },
  );

  it("the hook payloads carry what Corral's hook reads, under the events and matcher it installs", () => {
    const spec = HOOK_AGENT_SPECS[agent];
    const before = spec.events.find((e) => e.role === 'before-tool')!;
    const after = spec.events.find((e) => e.role === 'after-tool')!;
    const pre = json(`${dir}/hook-${before.event}.json`);
    const post = json(`${dir}/hook-${after.event}.json`);
    for (const [payload, event] of [
      [pre, before],
      [post, after],
    ] as const) {
      expect(payload.hook_event_name).toBe(event.event);
      expect(payload.tool_name).toBe(event.matcher);
      expect(payload.session_id).toEqual(expect.any(String));
      expect((payload.tool_input as { command: string }).command).toBe(facts.command);
    }
    // The before and after records of one call pair up: by tool_use_id, else by tool name and input.
    expect(post.session_id).toBe(pre.session_id);
    expect(post.tool_use_id).toBe(pre.tool_use_id);
    expect(post.tool_input).toEqual(pre.tool_input);
    // What the hook reads to leave a background call to its agent (main/hooks/run-hook.ts).
    const input = post.tool_input as { run_in_background?: unknown; is_background?: unknown };
    expect(input.run_in_background === true || input.is_background === true).toBe(facts.background === true);
  });
});
