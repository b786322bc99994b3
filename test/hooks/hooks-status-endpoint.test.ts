import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { hookEndpointPath } from '../../main/core/hooks-setup/hook-endpoint';
import { hookSocketPath } from '../../main/core/hooks-setup/hook-socket-path';
import { nobodyCannotRunCheckout } from '../support/as-nobody';
import { squatPortAsNobody } from '../support/port-squatter';
import { probeHookEndpoint, type HookEndpointProbe } from '../../main/core/hooks-setup/hook-endpoint-probe';
import { ensureOwnDataDir, writeOwnFileAtomically } from '../../main/core/storage/own-data-dir';
import { hookEndpointLine } from '../../main/cli/commands/hook-endpoint-line';
import { startServiceHooks } from '../../main/hooks/service-hooks';
import { freeLoopbackPort } from '../support/loopback-listeners';
import { runCli } from '../support/run-cli';
import { startServe, type ServeProcess } from '../support/serve-process';
import { removeDir } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';
import { describeUnless } from '../support/skip';

// The live service and the status command are the built CLI (npm run build), as installed.
const BUILT_CLI = fileURLToPath(new URL('../../out/main/corral.js', import.meta.url));
const reason =
  process.platform !== 'linux'
    ? 'the service answers hooks on Linux only'
    : !existsSync(BUILT_CLI)
      ? `${BUILT_CLI} is missing (npm run build)`
      : undefined;

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

/** Listens on the data directory's hook socket as a program of the user's would; closed after the test. */
async function listenOnSocket(
  data: string,
  server: Server | ReturnType<typeof createHttpServer>,
): Promise<void> {
  ensureOwnDataDir(data, 'hooks');
  const sockets = new Set<Socket>();
  server.on('connection', (so: Socket) => sockets.add(so));
  await new Promise<void>((r) => server.listen(hookSocketPath(data), r));
  cleanups.push(
    () =>
      new Promise<void>((r) => {
        for (const so of sockets) so.destroy();
        server.close(() => r());
      }),
  );
}

describeUnless(reason)('corral hooks status: who answers on the endpoint', () => {
  it('no socket: nothing listens, and the probe creates nothing', async () => {
    const data = join(dataDir(), 'data');
    expect(await probeHookEndpoint(data)).toEqual({
      state: 'not-listening',
      path: hookEndpointPath(data),
      socket: hookSocketPath(data),
    });
    expect(existsSync(data)).toBe(false);
  });

  it('tells a hung listener, another program and a folder open to others on the socket', async () => {
    const hung = dataDir();
    await listenOnSocket(
      hung,
      createServer(() => undefined),
    );
    const started = performance.now();
    expect(await probeHookEndpoint(hung, { deadlineMs: 300 })).toMatchObject({ state: 'not-answering' });
    expect(performance.now() - started).toBeLessThan(5_000);

    const other = dataDir();
    await listenOnSocket(
      other,
      createHttpServer((_req, res) => res.writeHead(404).end('not found')),
    );
    expect(await probeHookEndpoint(other)).toMatchObject({ state: 'not-corral', detail: 'HTTP 404' });

    const served = dataDir();
    const server = await startServiceHooks(served, (step, err) => {
      throw new Error(`${step}: ${String(err)}`);
    });
    cleanups.push(() => server!.close());
    expect(await probeHookEndpoint(served)).toMatchObject({ state: 'answering' });
    chmodSync(join(served, 'hooks'), 0o755);
    expect(await probeHookEndpoint(served)).toMatchObject({ state: 'not-yours' });
    expect(server!.stats).toMatchObject({ answered: 0, refused: 0 });
  });

  it('http hooks: a port nobody listens on, a Corral that refuses the token, and never the token to a listener of another user', async () => {
    const absent = dataDir();
    const port = await freeLoopbackPort();
    writeEndpoint(absent, port);
    expect((await probeHookEndpoint(absent, { http: true })).http).toEqual({ state: 'not-listening', port });

    // A Corral with http hooks installed on its endpoint's port, asked with another data directory's token.
    const served = dataDir();
    const ownPort = await freeLoopbackPort();
    writeEndpoint(served, ownPort);
    const { startHookServer } = await import('../../main/hooks/hook-server');
    const { readHookEndpoint } = await import('../../main/core/hooks-setup/hook-endpoint');
    const tcp = await startHookServer(
      readHookEndpoint(served)!,
      () => {
        throw new Error('not asked');
      },
      () => undefined,
    );
    cleanups.push(() => tcp.close());
    expect((await probeHookEndpoint(served, { http: true })).http).toEqual({
      state: 'answering',
      port: ownPort,
    });
    const stale = dataDir();
    writeEndpoint(stale, ownPort);
    expect((await probeHookEndpoint(stale, { http: true })).http).toEqual({
      state: 'token-refused',
      port: ownPort,
    });

    if (nobodyCannotRunCheckout) return;
    const squatted = dataDir();
    const squatPort = await freeLoopbackPort();
    const token = randomBytes(32).toString('hex');
    writeEndpoint(squatted, squatPort, token);
    const squatter = await squatPortAsNobody(squatPort);
    const probe = await probeHookEndpoint(squatted, { http: true });
    expect(probe.http).toEqual({ state: 'other-user', port: squatPort, uid: 65534 });
    expect(squatter.connections()).toBe(0);
    expect(squatter.received()).not.toContain(token);
    const line = hookEndpointLine(probe, { client: [], http: [{ label: 'Claude Code', port: squatPort }] });
    expect(line).toContain(`Another user holds the http hooks' port 127.0.0.1:${squatPort} (uid 65534)`);
  });

  it('with a live corral serve: answering on the socket; then, stopped, nothing answers', async () => {
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
    await waitFor(
      'the service answering hooks',
      async () => (await probeHookEndpoint(data)).state === 'answering',
    );

    const live = await status();
    expect(live.endpoint).toEqual({
      state: 'answering',
      path: hookEndpointPath(data),
      socket: hookSocketPath(data),
    });
    expect(live.text).toContain(
      `Hook service: A running Corral answers the agents' hooks on ${hookSocketPath(data)}.`,
    );

    const code = await serve.stop();
    serve = null;
    expect(code).toBe(0);
    const stopped = await status();
    expect(stopped.endpoint.state).toBe('not-listening');
    expect(stopped.text).toContain(`No Corral answers on ${hookSocketPath(data)}`);
    expect(stopped.text).toContain(
      'The hook client (Codex CLI) falls back to starting a hook process for each call',
    );
  });
});

describe('the status line (pure)', () => {
  const path = '/d/hooks/endpoint';
  const socket = '/d/hooks/hook.sock';
  it('says what http hooks and the client do without an answer, and names http hooks posting to another port', () => {
    const line = hookEndpointLine(
      { state: 'not-listening', path, socket, port: 900, http: { state: 'not-listening', port: 900 } },
      {
        client: ['Codex CLI'],
        http: [
          { label: 'Claude Code', port: 901 },
          { label: 'Claude Code', port: 901 },
        ],
      },
    );
    expect(line).toBe(
      "Hook service: No Corral answers on /d/hooks/hook.sock: no Corral service runs, or it could not take the socket (its log says why). The hook client (Codex CLI) falls back to starting a hook process for each call; the http hooks (Claude Code) get no answer, so no note. A running Corral (the app, corral watch, corral serve, corral service) answers them. Nothing answers on 127.0.0.1:900, the http hooks' port: they get no note until a Corral service takes it. Claude Code's http hooks cannot tell who listens on their port; Corral installs them only on a port below net.ipv4.ip_unprivileged_port_start, which only root may bind. The http hooks of Claude Code post to port 901, not 900: run `corral hooks install --http` again.",
    );
    expect(hookEndpointLine({ state: 'answering', path, socket }, { client: ['Codex CLI'], http: [] })).toBe(
      "Hook service: A running Corral answers the agents' hooks on /d/hooks/hook.sock. After each shell command, the agent's note on what the command left running comes from it, without starting Corral for the call.",
    );
  });
});
