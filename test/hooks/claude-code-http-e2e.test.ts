import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { ensureHookEndpoint, HOOK_TOKEN_HEADER } from '../../main/core/hooks-setup/hook-endpoint';
import { installHooks } from '../../main/core/hooks-setup/hooks-setup';
import {
  CLAUDE_CODE_VERSION,
  BUILT_CLI,
  claudeWithBuiltCliSkipReason,
  makeClaudeHome,
  runClaude,
  trackGroupsOfRun,
} from '../support/claude-code';
import { startWorkerService } from '../../main/core/worker/worker-service';
import { startFakeMessagesApi, type FakeMessagesApi } from '../support/fake-messages-api';
import { waitFor } from '../support/wait-for';
import { cleanEnv, removeDir, trackGroup } from '../support/spawned-groups';
import { describeUnless } from '../support/skip';

const reason = claudeWithBuiltCliSkipReason(
  'the service answers hooks on Linux (elsewhere they run one-shot)',
);
// The desktop app's core and hook server, built beside the CLI by npm run build.
const WORKER_ENTRY = fileURLToPath(new URL('../../out/main/service-worker.js', import.meta.url));

const dirs: string[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
let api: FakeMessagesApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
  for (const c of cleanups.splice(0).reverse()) await c();
  for (const d of dirs.splice(0)) removeDir(d);
});

function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

interface Setup {
  home: string;
  data: string;
  port: number;
  token: string;
}

/** A fresh HOME and data directory with Corral's hooks installed for Claude Code (http hooks). */
function setUp(): Setup {
  const { home } = makeClaudeHome();
  dirs.push(home);
  const data = tempDir('corral-http-e2e-data-');
  const env = { HOME: home, CORRAL_DATA_DIR: data, CORRAL_HOOK_COMMAND: 'corral' };
  const change = installHooks('claude-code', { env, home }, 'corral', false, true);
  expect(change.error).toBeUndefined();
  const settings = JSON.parse(readFileSync(join(home, '.claude', 'settings.json'), 'utf8')) as {
    hooks: Record<string, { hooks: { type: string; url?: string }[] }[]>;
  };
  // One hook per tool call, an http one; no PreToolUse, no command.
  expect(Object.keys(settings.hooks).sort()).toEqual([
    'PostToolUse',
    'PostToolUseFailure',
    'SessionEnd',
    'Stop',
  ]);
  const { port, token } = ensureHookEndpoint(data);
  expect(settings.hooks.PostToolUse![0]!.hooks[0]).toMatchObject({
    type: 'http',
    url: `http://127.0.0.1:${port}/hook/claude-code/PostToolUse`,
  });
  return { home, data, port, token };
}

/** `corral watch` (the built CLI) in its own group, until its hook server answers. */
async function startWatch(s: Setup): Promise<void> {
  const child = spawn(process.execPath, [BUILT_CLI, 'watch', '--json'], {
    env: cleanEnv({ HOME: s.home, CORRAL_DATA_DIR: s.data }),
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  trackGroup(child.pid!);
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.on('exit', () => resolve());
        process.kill(-child.pid!, 'SIGTERM');
      }),
  );
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`corral watch exited ${child.exitCode}: ${stderr}`);
    if ((await stats(s)) !== null) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`corral watch did not answer hooks on port ${s.port}: ${stderr}`);
}

/** The desktop app's arrangement without Electron: the built worker (out/main/service-worker.js), until its hook server answers. */
async function startDesktopWorker(s: Setup): Promise<void> {
  const worker = await startWorkerService(WORKER_ENTRY, { dataDir: s.data });
  cleanups.push(() => worker.stop());
  await waitFor(
    `the desktop worker answering hooks on port ${s.port}`,
    () => stats(s).then((x) => x !== null),
    {
      timeoutMs: 30_000,
    },
  );
}

async function stats(s: Setup): Promise<{ answered: number; failed: number } | null> {
  try {
    const res = await fetch(`http://127.0.0.1:${s.port}/hook/stats`, {
      headers: { [HOOK_TOKEN_HEADER]: s.token },
    });
    return res.ok ? ((await res.json()) as { answered: number; failed: number }) : null;
  } catch {
    return null;
  }
}

/** A stand-in on the hook port: one that accepts and never answers, or one that answers garbage. */
async function squat(port: number, kind: 'hung' | 'garbage' | 'error-status'): Promise<void> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    if (kind === 'hung') return;
    socket.once('data', () => {
      const body = kind === 'garbage' ? 'GARBAGE-FROM-SQUATTER {"hookSpecificOutput":' : '';
      const status = kind === 'garbage' ? '200 OK' : '500 Internal Server Error';
      socket.end(`HTTP/1.1 ${status}\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  );
}

/** One real `claude -p` turn whose Bash call leaves `tail -f /dev/null` running. */
async function oneTurn(s: Setup): Promise<{ leftoverPid: number; nextRequest: string; ms: number }> {
  api = await startFakeMessagesApi({
    command: 'tail -f /dev/null & echo "leftover pid $!"',
    description: 'Start a background reader',
  });
  const t = Date.now();
  const run = await runClaude({
    prompt: 'Start the reader.',
    baseUrl: api.baseUrl,
    cwd: tempDir('corral-http-e2e-cwd-'),
    home: s.home,
    env: { CORRAL_DATA_DIR: s.data },
  });
  const ms = Date.now() - t;
  trackGroupsOfRun(s.home);
  expect(run.code, run.stderr).toBe(0);
  const result = api.toolResultText();
  const m = /leftover pid (\d+)/.exec(result ?? '');
  expect(m, `tool result: ${result}`).not.toBeNull();
  const conversation = api.conversationRequests();
  const after = conversation[conversation.length - 1]!;
  expect(JSON.stringify(after.body)).toContain(api.toolUseId);
  return { leftoverPid: Number(m![1]), nextRequest: JSON.stringify(after.body), ms };
}

describeUnless(reason)(
  `Claude Code ${CLAUDE_CODE_VERSION} with Corral's http hooks answered by a running Corral (real CLI, fake API)`,
  { timeout: 240_000 },
  () => {
    it.each(['corral watch', 'the desktop app (its worker thread)'] as const)(
      '%s answers the PostToolUse http hook: the model is told the leftover, and no hook process ran',
      async (service) => {
        const s = setUp();
        await (service === 'corral watch' ? startWatch(s) : startDesktopWorker(s));
        const { leftoverPid, nextRequest } = await oneTurn(s);
        expect(nextRequest).toContain('Corral: this command left 1 process running');
        expect(nextRequest).toContain(`- pid ${leftoverPid} (process group `);
        expect(nextRequest).toMatch(/corral kill \d+:\d+:\d+/);
        // The service answered both hooks (PostToolUse, SessionEnd); nothing failed inside it.
        const after = await stats(s);
        expect(after?.answered).toBeGreaterThanOrEqual(2);
        expect(after?.failed).toBe(0);
        // No one-shot hook ran: it would have logged here or recorded a PreToolUse start.
        expect(existsSync(join(s.data, 'hooks', 'hook-errors.log'))).toBe(false);
        const ended = readFileSync(join(s.data, 'hooks', 'ended-sessions.jsonl'), 'utf8');
        expect(ended).toContain('"agent":"claude-code"');
      },
    );

    it.each(['absent', 'hung', 'garbage', 'error-status'] as const)(
      'with the service %s, the tool call completes and the model sees no note and no error',
      async (kind) => {
        const s = setUp();
        if (kind !== 'absent') await squat(s.port, kind);
        const { leftoverPid, nextRequest, ms } = await oneTurn(s);
        expect(nextRequest).not.toContain('Corral');
        expect(nextRequest).not.toContain(`pid ${leftoverPid} (process group`);
        expect(nextRequest).not.toContain('GARBAGE');
        expect(nextRequest).not.toMatch(/hook (error|failed)/i);
        expect(nextRequest).not.toContain('"is_error":true');
        // A hung service costs at most the hook's 2 s deadline per hook (PostToolUse, SessionEnd).
        if (kind === 'hung') expect(ms).toBeLessThan(60_000);
      },
    );
  },
);
