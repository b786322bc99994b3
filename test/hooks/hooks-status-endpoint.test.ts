import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { hookEndpointPath } from '../../main/core/hooks-setup/hook-endpoint';
import { probeHookEndpoint, type HookEndpointProbe } from '../../main/core/hooks-setup/hook-endpoint-probe';
import { ensureOwnDataDir, writeOwnFileAtomically } from '../../main/core/storage/own-data-dir';
import { hookEndpointLine } from '../../main/cli/commands/hook-endpoint-line';
import { startServiceHooks } from '../../main/hooks/service-hooks';
import { freeLoopbackPort, listenOnLoopback } from '../support/loopback-listeners';
import { runCli } from '../support/run-cli';
import { startServe, type ServeProcess } from '../support/serve-process';
import { removeDir } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';

// The live service and the status command are the built CLI (npm run build), as installed.
const BUILT_CLI = fileURLToPath(new URL('../../out/main/corral.js', import.meta.url));
const reason =
  process.platform !== 'linux'
    ? 'the service answers hooks on Linux only'
    : !existsSync(BUILT_CLI)
      ? `${BUILT_CLI} is missing (npm run build)`
      : undefined;
if (reason) console.warn(`[skipped] hooks status endpoint test: ${reason}`);

const dirs: string[] = [];
const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  for (const d of dirs.splice(0)) removeDir(d);
});

function dataDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'corral-hooks-status-'));
  dirs.push(d);
  return d;
}

/** The endpoint file as the service and install write it: `<port> <token>`, 0600 in the 0700 hooks folder. */
function writeEndpoint(data: string, port: number, token = randomBytes(32).toString('hex')): void {
  ensureOwnDataDir(data, 'hooks');
  writeOwnFileAtomically(hookEndpointPath(data), `${port} ${token}\n`);
}

/** Listens on a loopback port; closed (with its connections) after the test. */
async function listen(server: Server | ReturnType<typeof createHttpServer>, port = 0): Promise<number> {
  const listening = await listenOnLoopback(server, port);
  cleanups.push(listening.close);
  return listening.port;
}

describe.skipIf(reason !== undefined)('corral hooks status: who answers on the endpoint', () => {
  it('no endpoint file: none, and the probe creates nothing', async () => {
    const data = join(dataDir(), 'data');
    expect(await probeHookEndpoint(data)).toEqual({ state: 'none', path: hookEndpointPath(data) });
    expect(existsSync(data)).toBe(false);
  });

  it('tells a port nobody listens on, a hung listener, another program and a Corral that refuses the token', async () => {
    const absent = dataDir();
    const port = await freeLoopbackPort();
    writeEndpoint(absent, port);
    expect(await probeHookEndpoint(absent)).toMatchObject({ state: 'not-listening', port });

    const hung = dataDir();
    const hungPort = await listen(createServer(() => undefined));
    writeEndpoint(hung, hungPort);
    const started = performance.now();
    expect(await probeHookEndpoint(hung, 300)).toMatchObject({ state: 'not-answering', port: hungPort });
    expect(performance.now() - started).toBeLessThan(5_000);

    const other = dataDir();
    const otherPort = await listen(createHttpServer((_req, res) => res.writeHead(404).end('not found')));
    writeEndpoint(other, otherPort);
    expect(await probeHookEndpoint(other)).toMatchObject({
      state: 'not-corral',
      port: otherPort,
      detail: 'HTTP 404',
    });

    // A real Corral hook server, started from another data directory: its token is not this file's.
    const served = dataDir();
    const server = await startServiceHooks(served, (step, err) => {
      throw new Error(`${step}: ${String(err)}`);
    });
    expect(server).not.toBeNull();
    cleanups.push(() => server!.close());
    expect(await probeHookEndpoint(served)).toMatchObject({ state: 'answering', port: server!.port });
    const stale = dataDir();
    writeEndpoint(stale, server!.port);
    expect(await probeHookEndpoint(stale)).toMatchObject({ state: 'token-refused', port: server!.port });
    // Asked with the wrong token, the service answered nothing else.
    expect(server!.stats).toMatchObject({ answered: 0, refused: 1 });
  });

  it('with a live corral serve: answering; then a token the service did not read; then, stopped, nothing answers', async () => {
    let serve: ServeProcess | null = await startServe({});
    cleanups.push(() => serve?.stop());
    dirs.push(serve.home);
    const data = join(serve.home, 'data');
    const env = { HOME: serve.home, CORRAL_DATA_DIR: data, CORRAL_CONFIG: join(serve.home, 'config.json') };
    const cli = { env, command: [process.execPath, BUILT_CLI] };
    const status = async (): Promise<{ text: string; endpoint: HookEndpointProbe }> => {
      const text = await runCli(['hooks', 'status'], cli);
      const json = await runCli(['hooks', 'status', '--json'], cli);
      expect(text.code, text.stderr).toBe(0);
      expect(json.code, json.stderr).toBe(0);
      const line = text.stdout.split('\n').find((l) => l.startsWith('Hook service: '));
      return {
        text: line ?? '',
        endpoint: (JSON.parse(json.stdout) as { endpoint: HookEndpointProbe }).endpoint,
      };
    };
    expect((await runCli(['hooks', 'install', '--agent', 'codex'], cli)).code).toBe(0);
    const { port } = await waitFor('the service answering hooks', async () => {
      const p = await probeHookEndpoint(data);
      return p.state === 'answering' && p;
    });

    const live = await status();
    expect(live.endpoint).toEqual({ state: 'answering', path: hookEndpointPath(data), port });
    expect(live.text).toBe(
      `Hook service: a running Corral answers hooks on 127.0.0.1:${port} (${hookEndpointPath(data)}).`,
    );

    // The endpoint file written again while the service runs (removed, then re-created by an install).
    writeEndpoint(data, port!);
    const refused = await status();
    expect(refused.endpoint.state).toBe('token-refused');
    expect(refused.text).toContain(
      `the Corral on 127.0.0.1:${port} refuses the token in ${hookEndpointPath(data)}`,
    );
    expect(refused.text).toContain(
      'the hook client (Codex CLI) falls back to starting a hook process for each call',
    );

    const code = await serve.stop();
    serve = null;
    expect(code).toBe(0);
    const stopped = await status();
    expect(stopped.endpoint.state).toBe('not-listening');
    expect(stopped.text).toContain(`nothing answers on 127.0.0.1:${port}`);
    expect(stopped.text).toContain('no Corral service runs');
    expect(stopped.text).toContain(
      'the hook client (Codex CLI) falls back to starting a hook process for each call',
    );
  });
});

describe('the status line (pure)', () => {
  const path = '/d/hooks/endpoint';
  it('says what http hooks and the client do without an answer, and names http hooks posting to another port', () => {
    const line = hookEndpointLine(
      { state: 'not-listening', path, port: 21000 },
      {
        client: ['Codex CLI'],
        http: [
          { label: 'Claude Code', port: 21001 },
          { label: 'Claude Code', port: 21001 },
        ],
      },
    );
    expect(line).toBe(
      'Hook service: nothing answers on 127.0.0.1:21000, the port /d/hooks/endpoint names: no Corral service runs, or it could not take the port (its log says why). Until one answers, the hook client (Codex CLI) falls back to starting a hook process for each call; the http hooks (Claude Code) get no answer, so no note. The http hooks of Claude Code post to port 21001, not 21000: run `corral hooks install --http` again.',
    );
    expect(
      hookEndpointLine(
        { state: 'answering', path, port: 21000 },
        { client: [], http: [{ label: 'Claude Code', port: 21000 }] },
      ),
    ).toBe('Hook service: a running Corral answers hooks on 127.0.0.1:21000 (/d/hooks/endpoint).');
  });
});
