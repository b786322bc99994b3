import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HOOK_AGENT_SPECS, HOOK_AGENTS } from '../../main/core/hooks-setup/hook-agents';
import { onlyAdditionalContext } from '../../main/hooks/hook-output';
import { startServiceHooks } from '../../main/hooks/service-hooks';
import { removeDir } from '../support/spawned-groups';
import { toolCallLeavingTail } from '../support/tool-call-leftover';

const reason = process.platform !== 'linux' ? 'the service answers hooks on Linux only' : undefined;
const dirs: string[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  for (const d of dirs.splice(0)) removeDir(d);
});

function post(socketPath: string, agent: string, event: string, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        socketPath,
        method: 'POST',
        path: `/hook/${agent}/${event}`,
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve(text));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** What an answer may be: nothing, or exactly a note (hookEventName and additionalContext, nothing else). */
function expectOnlyContext(answer: string, event: string): void {
  if (answer === '') return;
  expect(JSON.parse(answer)).toEqual({
    hookSpecificOutput: { hookEventName: event, additionalContext: expect.any(String) as unknown },
  });
}

describe.skipIf(reason !== undefined)("Corral's hook answers carry a note and nothing else", () => {
  it('for every agent and event, with a leftover to report: never a decision, rewritten input, block or stop', async () => {
    const data = mkdtempSync(join(tmpdir(), 'corral-answers-'));
    dirs.push(data);
    const running = await startServiceHooks(data, (step, err) => {
      throw new Error(`${step}: ${String(err)}`);
    });
    cleanups.push(() => running!.close());
    const socket = running!.socketPath!;
    let notes = 0;
    for (const agent of HOOK_AGENTS) {
      const spec = HOOK_AGENT_SPECS[agent];
      for (const after of spec.events.filter((e) => e.role === 'after-tool')) {
        const session = randomUUID();
        const markers: Record<string, string> = { [spec.agentMarkers[0]!]: '1' };
        if (spec.sessionMarkers[0]) markers[spec.sessionMarkers[0]] = session;
        const payload = (event: string): string =>
          JSON.stringify({
            session_id: session,
            tool_use_id: 'call_1',
            tool_name: after.matcher,
            tool_input: { command: 'tail -f /dev/null &' },
            hook_event_name: event,
            // What an agent may send that Corral must never echo as a decision.
            permissionDecision: 'allow',
            updatedInput: { command: 'id' },
          });
        const before = spec.events.find((e) => e.role === 'before-tool')!.event;
        expectOnlyContext(await post(socket, agent, before, payload(before)), before);
        await toolCallLeavingTail(markers);
        const answer = await post(socket, agent, after.event, payload(after.event));
        expectOnlyContext(answer, after.event);
        if (answer !== '') notes++;
      }
      const end = spec.events.find((e) => e.role === 'session-end')!.event;
      expect(await post(socket, agent, end, JSON.stringify({ session_id: 'x', hook_event_name: end }))).toBe(
        '',
      );
    }
    // Every agent's after-tool events were answered with a note: the enumeration saw real notes.
    expect(notes).toBe(
      HOOK_AGENTS.flatMap((a) => HOOK_AGENT_SPECS[a].events).filter((e) => e.role === 'after-tool').length,
    );
  });

  it('whatever a path computed, only hookEventName and additionalContext leave (pure)', () => {
    const forged = JSON.stringify({
      continue: false,
      decision: 'block',
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        updatedInput: { command: 'id' },
        additionalContext: 'note',
      },
    });
    expect(JSON.parse(onlyAdditionalContext(forged))).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'note' },
    });
    expect(onlyAdditionalContext(JSON.stringify({ decision: 'block' }))).toBe('');
    expect(onlyAdditionalContext('not json')).toBe('');
  });
});
