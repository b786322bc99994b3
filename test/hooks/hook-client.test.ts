import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureHookEndpoint } from '../../main/core/hooks-setup/hook-endpoint';
import { hookSocketPath } from '../../main/core/hooks-setup/hook-socket-path';
import { perlProgram } from '../../main/core/hooks-setup/hook-client-script';
import { startServiceHooks, type RunningServiceHooks } from '../../main/hooks/service-hooks';
import { removeDir } from '../support/spawned-groups';
import { toolCallLeavingTail } from '../support/tool-call-leftover';
import {
  codexPayload,
  runHookClient,
  setUpHookClient,
  type ClientSetup,
  type ClientKind,
  CLIENT_KINDS,
  clientKindSkipReason,
} from '../support/hook-client-run';
import { describeUnless } from '../support/skip';

/** Whose socket the client must refuse to ask: any uid but the one it runs as . */
const NOBODY_UID = 65534;

const dirs: string[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  for (const d of dirs.splice(0)) removeDir(d);
});

function setUp(kind: ClientKind): ClientSetup {
  const s = setUpHookClient(kind);
  dirs.push(s.data);
  return s;
}

async function service(data: string): Promise<RunningServiceHooks> {
  const running = await startServiceHooks(data, (step, err) => {
    throw new Error(`${step}: ${String(err)}`);
  });
  cleanups.push(() => running!.close());
  return running!;
}

/** One Codex tool call's shape: the client's PreToolUse, a shell that leaves `tail` behind, the client's PostToolUse. */
async function toolCall(s: ClientSetup): Promise<{ leftover: number; out: string; clients: number[] }> {
  const session = randomUUID();
  const markers = { CODEX_THREAD_ID: session, CODEX_CI: '1' };
  const pre = await runHookClient(s, 'codex', 'PreToolUse', codexPayload(session, 'PreToolUse'), markers);
  expect([pre.code, pre.err, pre.out]).toEqual([0, '', '']);
  const { leftover } = await toolCallLeavingTail(markers);
  const post = await runHookClient(s, 'codex', 'PostToolUse', codexPayload(session, 'PostToolUse'), markers);
  expect([post.code, post.err]).toEqual([0, '']);
  return { leftover, out: post.out, clients: [pre.pid, post.pid] };
}

function fallbackPids(s: ClientSetup): number[] {
  if (!existsSync(s.fallbackPids)) return [];
  return readFileSync(s.fallbackPids, 'utf8').trim().split('\n').map(Number);
}

/** A listener of the user's own on the hook socket: hung, garbage, or an answer trickling a header line every 0.5 s. */
async function standIn(s: ClientSetup, kind: 'hung' | 'garbage' | 'trickle'): Promise<void> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    if (kind === 'hung') return;
    if (kind === 'garbage') {
      socket.once('data', () =>
        socket.end('HTTP/1.1 200 OK\r\nconnection: close\r\n\r\n{"hookSpecificOutput": GARBAGE'),
      );
      return;
    }
    socket.write('HTTP/1.1 200 OK\r\n');
    const timer = setInterval(() => socket.write('x-corral-hook: 1\r\n'), 500);
    timers.add(timer);
  });
  await new Promise<void>((r) => server.listen(hookSocketPath(s.data), r));
  cleanups.push(
    () =>
      new Promise<void>((r) => {
        for (const t of timers) clearInterval(t);
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

describe.each(CLIENT_KINDS)('the command hook client (%s, on the Unix socket)', (kind) => {
  const describeHere = describeUnless(clientKindSkipReason(kind));
  describeHere('', () => clientTests(kind));
});

function clientTests(kind: ClientKind): void {
  it('is written 0700 in the data directory and holds no token; perl with no modules, or C built from its source', () => {
    const s = setUp(kind);
    expect(statSync(s.client).mode & 0o777).toBe(0o700);
    const { token } = ensureHookEndpoint(s.data);
    const text = readFileSync(kind === 'perl' ? s.client : `${s.client}.c`, 'utf8');
    expect(text).not.toContain(token);
    if (kind === 'perl') expect(text).not.toMatch(/^\s*(use|require)\s/m);
    else expect(readFileSync(s.client).includes(token)).toBe(false);
  });

  it('with the service running, the service answers both hooks on the socket and no one-shot hook runs', async () => {
    const s = setUp(kind);
    const running = await service(s.data);
    expect(running.socketPath).toBe(hookSocketPath(s.data));
    // No http hooks installed: no TCP listener at all.
    expect(running.port).toBeNull();
    const { leftover, out } = await toolCall(s);
    expectNote(out, leftover);
    expect(running.stats.answered).toBe(2);
    expect(fallbackPids(s)).toEqual([]);
  });

  it.each(['no socket', 'a stale socket'] as const)(
    'with %s (nothing listens), the one-shot hook replaces the client and gives the same note',
    async (socket) => {
      const s = setUp(kind);
      if (socket === 'a stale socket') {
        // A Corral that is gone: its socket file is still there, nothing accepts on it (bound, never listened).
        const path = hookSocketPath(s.data);
        const made = spawnSync(perlProgram()!, [
          '-e',
          `socket(my $s,1,1,0); bind($s, pack('S Z*',1,$ARGV[0])) or die $!`,
          path,
        ]);
        expect(made.status).toBe(0);
        expect(statSync(path).isSocket()).toBe(true);
      }
      const { leftover, out, clients } = await toolCall(s);
      expectNote(out, leftover);
      // Nothing to ask: the one-shot hook replaced the client (exec), no client waited beside it.
      expect(fallbackPids(s)).toEqual(clients);
    },
  );

  it.each(['hung', 'garbage', 'trickle'] as const)(
    'a listener that took the connection (%s) gets no one-shot fallback, nothing is printed, and one deadline ends the call',
    async (listener) => {
      const s = setUp(kind);
      await standIn(s, listener);
      const session = randomUUID();
      const run = await runHookClient(s, 'codex', 'PostToolUse', codexPayload(session, 'PostToolUse'));
      expect([run.code, run.out, run.err]).toEqual([0, '', '']);
      expect(fallbackPids(s)).toEqual([]);
      // The trickle would hold a per-line deadline for as long as it trickles (forever here).
      if (listener !== 'garbage') expect(run.ms).toBeLessThan(5_000);
    },
  );

  it('a hooks folder others may enter is never asked: the one-shot hook runs', async () => {
    const s = setUp(kind);
    const running = await service(s.data);
    const folder = join(s.data, 'hooks');
    chmodSync(folder, 0o755);
    const session = randomUUID();
    const run = await runHookClient(s, 'codex', 'PreToolUse', codexPayload(session, 'PreToolUse'));
    expect(run.code).toBe(0);
    expect(running.stats.answered).toBe(0);
    expect(fallbackPids(s)).toEqual([run.pid]);
    chmodSync(folder, 0o700);
    rmSync(s.fallbackPids);
    const again = await runHookClient(s, 'codex', 'PreToolUse', codexPayload(session, 'PreToolUse'));
    expect(running.stats.answered).toBe(1);
    expect(fallbackPids(s)).toEqual([]);
    expect(again.out).toBe('');
  });

  // Giving the socket to another user takes root.
  it.skipIf(process.geteuid?.() !== 0)(
    "a socket that is not the user's is never asked: the one-shot hook runs",
    async () => {
      const s = setUp(kind);
      const running = await service(s.data);
      const path = hookSocketPath(s.data);
      const mine = statSync(path);
      chownSync(path, NOBODY_UID, mine.gid);
      const run = await runHookClient(s, 'codex', 'PreToolUse', codexPayload(randomUUID(), 'PreToolUse'));
      expect(run.code).toBe(0);
      expect(running.stats.answered).toBe(0);
      expect(fallbackPids(s)).toEqual([run.pid]);
      chownSync(path, mine.uid, mine.gid);
    },
  );

  it('a second Corral on the same data directory leaves the live socket to the first, and says so', async () => {
    const s = setUp(kind);
    const first = await service(s.data);
    const said: string[] = [];
    const second = await startServiceHooks(s.data, (step, err) => said.push(`${step}: ${String(err)}`));
    cleanups.push(() => second!.close());
    expect(second!.socketPath).toBeNull();
    expect(said).toEqual([
      `hook socket: Error: another Corral already answers hooks on ${hookSocketPath(s.data)} (the same data directory); this one leaves it to that one`,
    ]);
    await second!.close();
    // The first still answers on its socket, which the second's close left alone.
    const run = await runHookClient(s, 'codex', 'PreToolUse', codexPayload(randomUUID(), 'PreToolUse'));
    expect(run.code).toBe(0);
    expect(first.stats.answered).toBe(1);
    expect(fallbackPids(s)).toEqual([]);
  });

  it('a data directory whose socket path is too long for a Unix socket address: said clearly, and the hooks fall back', async () => {
    const s = setUp(kind);
    const data = join(s.data, 'x'.repeat(100));
    mkdirSync(data, { mode: 0o700 });
    const said: string[] = [];
    const running = await startServiceHooks(data, (step, err) => said.push(`${step}: ${String(err)}`));
    cleanups.push(() => running!.close());
    expect(running!.socketPath).toBeNull();
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(
      /more than the 107 a Unix socket address holds: set CORRAL_DATA_DIR to a shorter directory/,
    );
  });
}
