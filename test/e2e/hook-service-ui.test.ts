// The Hooks section's "Hook service" in real Chromium, answered by a real `corral serve` (the built
// CLI) that probes real listeners: its own hook socket, then in the socket's place a listener that
// never answers, another program, nothing at all, and a hooks folder open to others; with http hooks
// installed, their port too. Each state in plain words, with what it means for the agents' tool calls,
// and the section fits the 420 px popover. Screenshots go to test-artifacts/.
import { chmodSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { hookSocketPath } from '../../main/core/hooks-setup/hook-socket-path';
import { probeHookEndpoint } from '../../main/core/hooks-setup/hook-endpoint-probe';
import { runCli } from '../support/run-cli';
import { startServe } from '../support/serve-process';
import { noHorizontalScroll, withinWidth } from '../support/page-fit';
import { waitFor } from '../support/wait-for';
import { describeUnless } from '../support/skip';

const ARTIFACTS = 'test-artifacts';
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync'];
const POPOVER = { width: 420, height: 700 };
const WINDOW = { width: 1280, height: 800 };
const BUILT_CLI = fileURLToPath(new URL('../../out/main/corral.js', import.meta.url));
const reason =
  process.platform !== 'linux'
    ? 'the service answers hooks on Linux only'
    : !existsSync(BUILT_CLI)
      ? `${BUILT_CLI} is missing (npm run build)`
      : undefined;

let browser: Browser;
const cleanups: (() => Promise<unknown> | void)[] = [];

beforeAll(async () => {
  if (reason) return;
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
});

afterAll(async () => {
  await browser?.close();
});

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Listens on `path` (in place of the serve's socket, which keeps listening unnamed); returns its close. */
async function listenAt(
  path: string,
  server: Server | ReturnType<typeof createHttpServer>,
): Promise<() => Promise<void>> {
  rmSync(path, { force: true });
  const sockets = new Set<Socket>();
  server.on('connection', (so: Socket) => sockets.add(so));
  await new Promise<void>((r) => server.listen(path, r));
  const close = (): Promise<void> =>
    new Promise<void>((r) => {
      for (const so of sockets) so.destroy();
      server.close(() => r());
    });
  cleanups.push(close);
  return close;
}

describeUnless(reason)("the Hooks section's hook service, in real Chromium", () => {
  it('shows who answers the hooks, in plain words, for every state the probe tells', async () => {
    const serve = await startServe({ pollIntervalMs: 500 });
    cleanups.push(() => serve.stop());
    cleanups.push(() => rmSync(serve.home, { recursive: true, force: true }));
    const data = join(serve.home, 'data');
    const socket = hookSocketPath(data);
    const env = { HOME: serve.home, CORRAL_DATA_DIR: data, CORRAL_CONFIG: join(serve.home, 'config.json') };
    // Codex's hooks run the hook client, which asks the running Corral first.
    const installed = await runCli(['hooks', 'install', '--agent', 'codex'], {
      env,
      command: [process.execPath, BUILT_CLI],
    });
    expect(installed.code, installed.stderr).toBe(0);
    await waitFor(
      'the serve answering hooks',
      async () => (await probeHookEndpoint(data)).state === 'answering',
    );

    const page = await browser.newPage({ viewport: POPOVER });
    cleanups.push(() => page.close());
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(serve.url);
    await page.getByRole('button', { name: 'Settings' }).click();
    const service = page.getByTestId('hook-service');
    const summary = service.getByTestId('hook-service-summary');
    const meaning = service.getByTestId('hook-service-meaning');
    const badge = service.locator('.hook-badge');
    const shows = async (state: string): Promise<void> => {
      await service.getByRole('button', { name: 'Ask again' }).click();
      await expect.poll(() => service.getAttribute('data-state'), { timeout: 10_000 }).toBe(state);
    };
    const meanwhile = 'the hook client (Codex CLI) falls back to starting a hook process for each call';

    await expect.poll(() => service.getAttribute('data-state'), { timeout: 10_000 }).toBe('answering');
    expect(await badge.textContent()).toBe('answering');
    expect(await summary.textContent()).toBe(`A running Corral answers the agents' hooks on ${socket}.`);
    expect(await meaning.textContent()).toBe(
      "After each shell command, the agent's note on what the command left running comes from it, without starting Corral for the call.",
    );
    for (const [name, size] of [
      ['420', POPOVER],
      ['1280', WINDOW],
    ] as const) {
      await page.setViewportSize(size);
      expect(await noHorizontalScroll(page)).toBe(true);
      expect(
        await withinWidth(page, '.hook-service, .hook-service p, .hook-service button', size.width),
      ).toBe(true);
      await service.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${ARTIFACTS}/hook-service-answering-${name}.png` });
    }
    await page.setViewportSize(POPOVER);

    // In the socket's place, a listener of the user's that takes the connection and never answers.
    const closeHung = await listenAt(
      socket,
      createServer(() => undefined),
    );
    await shows('not-answering');
    expect(await badge.textContent()).toBe('hung');
    expect(await summary.textContent()).toBe(
      `${socket} took the connection but did not answer within 1 s (a hung or overloaded Corral).`,
    );
    await service.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${ARTIFACTS}/hook-service-hung-420.png` });
    await closeHung();

    // Another program of the user's there.
    const closeOther = await listenAt(
      socket,
      createHttpServer((_req, res) => res.writeHead(404).end('not found')),
    );
    await shows('not-corral');
    expect(await summary.textContent()).toBe(`Something other than Corral answers on ${socket} (HTTP 404).`);
    await closeOther();

    // Nothing there; then the hooks folder opened to others.
    rmSync(socket, { force: true });
    await shows('not-listening');
    expect(await badge.textContent()).toBe('no service');
    expect(await meaning.textContent()).toBe(
      `${meanwhile.charAt(0).toUpperCase()}${meanwhile.slice(1)}. A running Corral (the app, corral watch, corral serve, corral service) answers them.`,
    );
    await listenAt(
      socket,
      createServer(() => undefined),
    );
    chmodSync(join(data, 'hooks'), 0o755);
    await shows('not-yours');
    expect(await summary.textContent()).toContain('is not a folder of yours closed to others (0700)');
    chmodSync(join(data, 'hooks'), 0o700);

    // Claude Code's http hooks (root only, on a port only root may bind): their port, which this serve,
    // started before they were installed, does not hold.
    if (process.geteuid?.() === 0) {
      const http = await runCli(['hooks', 'install', '--agent', 'claude-code', '--http'], {
        env,
        command: [process.execPath, BUILT_CLI],
      });
      expect(http.code, http.stderr).toBe(0);
      expect(http.stdout).toContain("Claude Code's http hooks cannot tell who listens on their TCP port");
      await shows('not-answering');
      const line = service.getByTestId('hook-service-http');
      await expect.poll(() => line.getAttribute('data-state'), { timeout: 10_000 }).toBe('not-listening');
      expect(await line.textContent()).toContain(
        "the http hooks' port: they get no note until a Corral service takes it.",
      );
      await service.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${ARTIFACTS}/hook-service-http-420.png` });
    }
    expect(await noHorizontalScroll(page)).toBe(true);
    expect(await withinWidth(page, '.hook-service, .hook-service p', POPOVER.width)).toBe(true);
    expect(errors).toEqual([]);
  });
});
