import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { startServiceHooks } from '../../main/hooks/service-hooks';
import { removeDir } from '../support/spawned-groups';
import { toolCallLeavingTail } from '../support/tool-call-leftover';
import {
  hookClientSkipReason,
  runHookClient,
  setUpHookClient,
  type ClientSetup,
} from '../support/hook-client-run';
import { describeUnless } from '../support/skip';
import { writeCodexFunctionCall } from '../support/codex-transcript';

// Claude Code's and Codex's hooks as `hooks install` writes them: the client on PostToolUse, no
// PreToolUse. The call's start comes from Claude Code's duration_ms, and from the function call's line
// in Codex's transcript, through the running service and through the one-shot fallback alike.

const dirs: string[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  for (const d of dirs.splice(0)) removeDir(d);
});

function claudePayload(session: string, id: string, durationMs: number): string {
  return JSON.stringify({
    session_id: session,
    hook_event_name: 'PostToolUse',
    tool_name: 'Bash',
    tool_input: { command: 'tail -f /dev/null &', description: 'Start a reader' },
    tool_response: { stdout: '', stderr: '', interrupted: false },
    tool_use_id: id,
    duration_ms: durationMs,
  });
}

/** Codex 0.171.0's PostToolUse (test/fixtures/codex/0.171.0/hook-PostToolUse.json): no duration, a transcript. */
function codexPayload(session: string, id: string, transcript: string): string {
  return JSON.stringify({
    session_id: session,
    transcript_path: transcript,
    hook_event_name: 'PostToolUse',
    tool_name: 'Bash',
    tool_input: { command: 'tail -f /dev/null &' },
    tool_response: '',
    tool_use_id: id,
  });
}

type Agent = 'claude-code' | 'codex';

function markersOf(agent: Agent, session: string): Record<string, string> {
  return agent === 'codex'
    ? { CODEX_THREAD_ID: session, CODEX_CI: '1' }
    : { CLAUDECODE: '1', CLAUDE_CODE_SESSION_ID: session };
}

/** One Bash call as the agent makes it: the tool's shell leaves `tail` behind, then PostToolUse alone. */
async function toolCall(
  s: ClientSetup,
  agent: Agent,
  session: string,
  id: string,
): Promise<{ leftover: number; note: string }> {
  const markers = markersOf(agent, session);
  const transcript = join(s.data, `rollout-${session}.jsonl`);
  if (agent === 'codex') writeCodexFunctionCall(transcript, id, 'tail -f /dev/null &');
  const began = performance.now();
  const { leftover } = await toolCallLeavingTail(markers);
  const duration = Math.ceil(performance.now() - began);
  const payload =
    agent === 'codex' ? codexPayload(session, id, transcript) : claudePayload(session, id, duration);
  const post = await runHookClient(s, agent, 'PostToolUse', payload, markers);
  expect([post.code, post.err]).toEqual([0, '']);
  const parsed = JSON.parse(post.out || '{}') as { hookSpecificOutput?: { additionalContext?: string } };
  return { leftover, note: parsed.hookSpecificOutput?.additionalContext ?? '' };
}

/** The note names exactly this one leftover. */
function expectOnly(note: string, leftover: number): void {
  expect(note).toContain('Corral: this command left 1 process running');
  expect(note).toContain(`- pid ${leftover} (process group `);
}

/**
 * A leftover of the session from 3 s before (more than the delivery slack): not this call's. Then two
 * calls in a row, each leaving one: each note names its own call's leftover, the second not the first's
 * (the first's answer bounds the second's start). The service's bound is the clock tick its answer
 * began in, which the first call's leftover may share (10 ms): there only the one-shot's is asserted,
 * taken when its answer ended, a Node start-up after the hook began.
 */
async function twoCallsAfterAnOlderLeftover(
  s: ClientSetup,
  agent: Agent,
  boundAsserted: boolean,
): Promise<void> {
  const session = randomUUID();
  const older = await toolCallLeavingTail(markersOf(agent, session));
  await sleep(3_000);
  const first = await toolCall(s, agent, session, 'toolu_first');
  expectOnly(first.note, first.leftover);
  expect(first.note).not.toContain(`pid ${older.leftover} `);
  const second = await toolCall(s, agent, session, 'toolu_second');
  expect(second.note).toContain(`- pid ${second.leftover} (process group `);
  expect(second.note).not.toContain(`pid ${older.leftover} `);
  if (!boundAsserted) return;
  expectOnly(second.note, second.leftover);
  expect(second.note).not.toContain(`pid ${first.leftover} `);
}

function fallbackRuns(s: ClientSetup): number {
  return existsSync(s.fallbackPids) ? readFileSync(s.fallbackPids, 'utf8').trim().split('\n').length : 0;
}

describe.each(['claude-code', 'codex'] as const)(
  "%s's PostToolUse alone attributes the call's leftover",
  (agent) => {
    describeUnless(hookClientSkipReason)('', { timeout: 60_000 }, () => {
      it('through the running service', async () => {
        const s = setUpHookClient();
        dirs.push(s.data);
        const running = (await startServiceHooks(s.data, (step, err) => {
          throw new Error(`${step}: ${String(err)}`);
        }))!;
        cleanups.push(() => running.close());
        await twoCallsAfterAnOlderLeftover(s, agent, false);
        expect(running.stats.answered).toBe(2);
        expect(fallbackRuns(s)).toBe(0);
      });

      it('through the one-shot fallback (no service)', async () => {
        const s = setUpHookClient();
        dirs.push(s.data);
        await twoCallsAfterAnOlderLeftover(s, agent, true);
        expect(fallbackRuns(s)).toBe(2);
        expect(existsSync(`${s.data}/hooks/hook-errors.log`)).toBe(false);
      });
    });
  },
);
