import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureHookEndpoint, hookEndpointPath } from '../../main/core/hooks-setup/hook-endpoint';
import { writeHookClient } from '../../main/core/hooks-setup/hook-client-script';
import { shellQuote } from '../../main/core/hooks-setup/shell-quote';
import { startServiceHooks } from '../../main/hooks/service-hooks';
import type { RunningHookServer } from '../../main/hooks/hook-server';
import { cleanEnv, removeDir } from '../support/spawned-groups';
import { toolCallLeavingTail } from '../support/tool-call-leftover';

// The one-shot fallback is the built hook entry (npm run build), as an installed Corral runs it.
const BUILT_HOOK = fileURLToPath(new URL('../../out/main/corral-hook.js', import.meta.url));
const reason =
  process.platform !== 'linux'
    ? 'the service answers hooks on Linux only'
    : !existsSync(BUILT_HOOK)
      ? `${BUILT_HOOK} is missing (npm run build)`
      : undefined;
if (reason) console.warn(`[skipped] hook client test: ${reason}`);

const dirs: string[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  for (const d of dirs.splice(0)) removeDir(d);
});

interface Setup {
  data: string;
  client: string;
  /** Written by the one-shot fallback's wrapper each time it runs. */
  fallbackLog: string;
  /** The pid the one-shot fallback ran as, one line each time. */
  fallbackPids: string;
  port: number;
}

function setUp(): Setup {
  const data = mkdtempSync(join(tmpdir(), 'corral-hook-client-'));
  dirs.push(data);
  const { port } = ensureHookEndpoint(data);
  const fallbackLog = join(data, 'fallback-ran');
  const fallbackPids = join(data, 'fallback-pids');
  // The one-shot prefix the client falls back to: a note that it ran, then the real one-shot hook.
  const wrapper = join(data, 'one-shot.sh');
  writeFileSync(
    wrapper,
    `#!/bin/sh\necho ran >> ${shellQuote(fallbackLog)}\necho $$ >> ${shellQuote(fallbackPids)}\nexec ${shellQuote(process.execPath)} ${shellQuote(BUILT_HOOK)} "$@"\n`,
    { mode: 0o700 },
  );
  const client = writeHookClient(data, `/bin/sh ${shellQuote(wrapper)}`);
  return { data, client, fallbackLog, fallbackPids, port };
}

/** One Codex tool call's shape: the client's PreToolUse, a shell that leaves `tail` behind, the client's PostToolUse. */
async function toolCall(s: Setup): Promise<{ leftover: number; out: string; ms: number; clients: number[] }> {
  const session = randomUUID();
  const markers = { CODEX_THREAD_ID: session, CODEX_CI: '1', CORRAL_DATA_DIR: s.data };
  const payload = (event: string): string =>
    JSON.stringify({
      session_id: session,
      tool_use_id: 'call_1',
      tool_name: 'Bash',
      tool_input: { command: 'tail -f /dev/null &' },
      hook_event_name: event,
    });
  // Not spawnSync: the service under test may answer from this very process.
  const clients: number[] = [];
  const hook = async (event: string): Promise<{ out: string; ms: number }> => {
    const t = performance.now();
    const child = spawn('/bin/bash', [s.client, 'hook', 'codex', event], { env: cleanEnv(markers) });
    clients.push(child.pid!);
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.stdin.end(payload(event));
    const code = await new Promise((r) => child.on('close', r));
    expect(code, err).toBe(0);
    expect(err).toBe('');
    return { out, ms: performance.now() - t };
  };
  expect((await hook('PreToolUse')).out).toBe('');
  const { leftover } = await toolCallLeavingTail(markers);
  const post = await hook('PostToolUse');
  return { leftover, ...post, clients };
}

async function standIn(port: number, kind: 'hung' | 'garbage'): Promise<void> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    if (kind === 'hung') return;
    socket.once('data', () =>
      socket.end('HTTP/1.1 200 OK\r\nconnection: close\r\n\r\n{"hookSpecificOutput": GARBAGE'),
    );
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  cleanups.push(
    () =>
      new Promise<void>((r) => {
        for (const so of sockets) so.destroy();
        server.close(() => r());
      }),
  );
}

function expectNote(out: string, leftover: number): void {
  const parsed = JSON.parse(out) as { hookSpecificOutput: { additionalContext: string } };
  expect(parsed.hookSpecificOutput.additionalContext).toContain(
    'Corral: this command left 1 process running',
  );
  expect(parsed.hookSpecificOutput.additionalContext).toContain(`- pid ${leftover} (process group `);
}

describe.skipIf(reason !== undefined)('the command hook client (bash, for agents without http hooks)', () => {
  it('is written 0700 in the data directory and reads the token from the 0600 endpoint file, never from argv', () => {
    const s = setUp();
    expect(statSync(s.client).mode & 0o777).toBe(0o700);
    expect(statSync(hookEndpointPath(s.data)).mode & 0o777).toBe(0o600);
    const { token } = ensureHookEndpoint(s.data);
    expect(readFileSync(s.client, 'utf8')).not.toContain(token);
  });

  it('with the service running, the service answers both hooks with the note and no one-shot hook runs', async () => {
    const s = setUp();
    const server = (await startServiceHooks(s.data, (step, err) => {
      throw new Error(`${step}: ${String(err)}`);
    })) as RunningHookServer;
    cleanups.push(() => server.close());
    const { leftover, out } = await toolCall(s);
    expectNote(out, leftover);
    expect(server.stats.answered).toBe(2);
    expect(existsSync(s.fallbackLog)).toBe(false);
  });

  it.each(['absent', 'no endpoint', 'hung', 'garbage'] as const)(
    'with the service %s, the one-shot fallback gives the same note',
    async (kind) => {
      const s = setUp();
      if (kind === 'no endpoint') rmSync(hookEndpointPath(s.data));
      if (kind === 'hung' || kind === 'garbage') await standIn(s.port, kind);
      const { leftover, out, ms, clients } = await toolCall(s);
      expectNote(out, leftover);
      expect(readFileSync(s.fallbackLog, 'utf8')).toBe('ran\nran\n');
      const ranAs = readFileSync(s.fallbackPids, 'utf8').trim().split('\n').map(Number);
      if (kind === 'absent' || kind === 'no endpoint') {
        // Nothing to ask: the one-shot hook replaced the client (exec), no bash waited beside it.
        expect(ranAs).toEqual(clients);
      } else {
        // The service took the payload and failed: the client hands it on and waits.
        expect(ranAs.some((pid) => clients.includes(pid))).toBe(false);
      }
      // The client gives up on a silent service after its 1 s read deadline, not the agent's.
      if (kind === 'hung') expect(ms).toBeLessThan(10_000);
    },
  );
});
