import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { request } from 'node:http';
import { hookSocketPath } from '../../main/core/hooks-setup/hook-socket-path';
import { startWorkerService, type WorkerBackedService } from '../../main/core/worker/worker-service';
import { cleanEnv, removeDir } from '../support/spawned-groups';
import { toolCallLeavingTail } from '../support/tool-call-leftover';
import { waitFor } from '../support/wait-for';
import { describeUnless } from '../support/skip';

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

let running: WorkerBackedService | null = null;
const dirs: string[] = [];
afterEach(async () => {
  await running?.stop();
  running = null;
  for (const d of dirs.splice(0)) removeDir(d);
});

/** Asks the hook socket as the hook client does: HTTP over the Unix socket in the data directory. */
function askSocket(
  socketPath: string,
  path: string,
  body?: string,
): Promise<{ status: number; corral: string | undefined; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        socketPath,
        path,
        method: body === undefined ? 'GET' : 'POST',
        headers: { 'content-type': 'application/json', connection: 'close' },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, corral: res.headers['x-corral-hook'] as string, text }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
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

function refusesConnections(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ path: socketPath });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) =>
      resolve(err.code === 'ECONNREFUSED' || err.code === 'ENOENT'),
    );
  });
}

describeUnless(reason)('the desktop worker answers agents’ hooks', () => {
  it('answers a hook on its socket with the note the one-shot reader gives, and lets go of it when stopped', async () => {
    const data = mkdtempSync(join(tmpdir(), 'corral-worker-hooks-'));
    dirs.push(data);
    running = await startWorkerService(ENTRY, { dataDir: data });
    // The worker listens on the hook socket in its data directory (the hook client's channel).
    const socket = hookSocketPath(data);
    await waitFor('the worker answering on its hook socket', async () => {
      if (!existsSync(socket)) return undefined;
      const stats = await askSocket(socket, '/hook/stats').catch(() => null);
      return stats?.status === 200 || undefined;
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

    const res = await askSocket(
      socket,
      '/hook/claude-code/PostToolUse',
      payload('PostToolUse', 'toolu_http', { duration_ms: durationMs }),
    );
    expect(res.status).toBe(200);
    expect(res.corral).toBe('1');
    const served = res.text;
    const printed = await oneShot('PostToolUse', payload('PostToolUse', 'toolu_cmd'), markers);

    const note = (JSON.parse(printed) as { hookSpecificOutput: { additionalContext: string } })
      .hookSpecificOutput.additionalContext;
    expect(note).toContain('Corral: this command left 1 process running');
    expect(note).toContain(`- pid ${leftover} (process group ${pgid})`);
    // The one-shot hook ends its answer with a newline (it prints a line); the service sends the text.
    expect(served).toBe(printed.trimEnd());

    // Quit: the worker closes the hook server with the service; nothing answers on the socket again.
    await running.stop();
    running = null;
    expect(await refusesConnections(socket)).toBe(true);
  });
});
