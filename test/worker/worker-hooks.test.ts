import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  HOOK_TOKEN_HEADER,
  hookUrl,
  readHookEndpoint,
  type HookEndpoint,
} from '../../main/core/hooks-setup/hook-endpoint';
import { startWorkerService, type WorkerBackedService } from '../../main/core/worker/worker-service';
import { cleanEnv, removeDir } from '../support/spawned-groups';
import { toolCallLeavingTail } from '../support/tool-call-leftover';
import { waitFor } from '../support/wait-for';

// The desktop app's arrangement without Electron: the built worker (npm run build), as main/electron/index.ts
// starts it; the one-shot hook is the built hook entry, as an installed Corral runs it.
const ENTRY = fileURLToPath(new URL('../../out/main/service-worker.js', import.meta.url));
const BUILT_HOOK = fileURLToPath(new URL('../../out/main/corral-hook.js', import.meta.url));
const reason =
  process.platform !== 'linux'
    ? 'the service answers hooks on Linux only'
    : !existsSync(ENTRY) || !existsSync(BUILT_HOOK)
      ? `${ENTRY} or ${BUILT_HOOK} is missing (npm run build)`
      : undefined;
if (reason) console.warn(`[skipped] worker hooks test: ${reason}`);

let running: WorkerBackedService | null = null;
const dirs: string[] = [];
afterEach(async () => {
  await running?.stop();
  running = null;
  for (const d of dirs.splice(0)) removeDir(d);
});

/** POST one hook event to the endpoint, as Claude Code's http hook does: real HTTP, the token in its header. */
async function postHook(endpoint: HookEndpoint, event: string, body: string): Promise<Response> {
  return fetch(hookUrl(endpoint.port, 'claude-code', event), {
    method: 'POST',
    headers: { [HOOK_TOKEN_HEADER]: endpoint.token, 'content-type': 'application/json' },
    body,
  });
}

/** The one-shot hook's stdout for one event, run with the agent's markers as the agent runs it. */
async function oneShot(event: string, body: string, env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, [BUILT_HOOK, 'hook', 'claude-code', event], { env: cleanEnv(env) });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  child.stdin.end(body);
  const code = await new Promise((r) => child.on('close', r));
  expect(code, err).toBe(0);
  return out;
}

function refusesConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

describe.skipIf(reason !== undefined)('the desktop worker answers agents’ hooks', () => {
  it('answers a hook on its endpoint with the note the one-shot reader gives, and frees the port when stopped', async () => {
    const data = mkdtempSync(join(tmpdir(), 'corral-worker-hooks-'));
    dirs.push(data);
    running = await startWorkerService(ENTRY, { dataDir: data });
    // The worker writes the endpoint (0600, in its data directory) and then listens on it.
    const endpoint = await waitFor('the worker answering on its hook endpoint', async () => {
      const e = readHookEndpoint(data);
      if (!e) return undefined;
      const res = await fetch(`http://127.0.0.1:${e.port}/hook/stats`, {
        headers: { [HOOK_TOKEN_HEADER]: e.token },
      });
      return res.status === 200 && e;
    });

    const session = randomUUID();
    const markers = {
      CLAUDECODE: '1',
      CLAUDE_CODE_ENTRYPOINT: 'cli',
      CLAUDE_CODE_SESSION_ID: session,
      CORRAL_DATA_DIR: data,
    };
    const payload = (event: string, toolUseId: string, extra: Record<string, unknown> = {}): string =>
      JSON.stringify({
        session_id: session,
        tool_use_id: toolUseId,
        tool_name: 'Bash',
        tool_input: { command: 'tail -f /dev/null &' },
        hook_event_name: event,
        ...extra,
      });

    // One tool call that leaves `tail` behind. The one-shot hook runs before and after it (command
    // hooks); the worker is asked after it only, as Claude Code's http hook is (with duration_ms).
    expect(await oneShot('PreToolUse', payload('PreToolUse', 'toolu_cmd'), markers)).toBe('');
    const started = performance.now();
    const { leftover, pgid } = await toolCallLeavingTail(markers);
    const durationMs = Math.round(performance.now() - started);

    const res = await postHook(
      endpoint,
      'PostToolUse',
      payload('PostToolUse', 'toolu_http', { duration_ms: durationMs }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('x-corral-hook')).toBe('1');
    const served = await res.text();
    const printed = await oneShot('PostToolUse', payload('PostToolUse', 'toolu_cmd'), markers);

    const note = (JSON.parse(printed) as { hookSpecificOutput: { additionalContext: string } })
      .hookSpecificOutput.additionalContext;
    expect(note).toContain('Corral: this command left 1 process running');
    expect(note).toContain(`- pid ${leftover} (process group ${pgid})`);
    // The one-shot hook ends its answer with a newline (it prints a line); the service sends the text.
    expect(served).toBe(printed.trimEnd());

    // A request without the right token is refused, and says nothing.
    const refused = await postHook({ ...endpoint, token: 'f'.repeat(64) }, 'PostToolUse', '{}');
    expect(refused.status).toBe(403);
    expect(await refused.text()).toBe('');

    // Quit: the worker closes the hook server with the service, so the port is free again.
    await running.stop();
    running = null;
    expect(await refusesConnections(endpoint.port)).toBe(true);
  });
});
