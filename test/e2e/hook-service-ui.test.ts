// The Hooks section's "Hook service" in real Chromium, answered by a real `corral serve` (the built
// CLI) that probes real listeners: its own hook server, then the endpoint file pointed at a listener
// that never answers, another program, the serve's port with a token it did not read, a port nobody
// listens on (with http hooks posting to the old one), and no file at all. Each state in plain words, with what it means for the agents' tool
// calls, and the section fits the 420 px popover. Screenshots go to test-artifacts/.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hookEndpointPath } from '../../main/core/hooks-setup/hook-endpoint';
import { probeHookEndpoint } from '../../main/core/hooks-setup/hook-endpoint-probe';
import { writeOwnFileAtomically } from '../../main/core/storage/own-data-dir';
import { freeLoopbackPort, listenOnLoopback } from '../support/loopback-listeners';
import { runCli } from '../support/run-cli';
import { startServe } from '../support/serve-process';
import { noHorizontalScroll, withinWidth } from '../support/page-fit';
import { waitFor } from '../support/wait-for';

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
if (reason) console.warn(`[skipped] hook service UI test: ${reason}`);

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

/** Listens on a loopback port; closed (with its connections) after the test. */
async function listen(server: Server | ReturnType<typeof createHttpServer>, port = 0): Promise<number> {
  const listening = await listenOnLoopback(server, port);
  cleanups.push(listening.close);
  return listening.port;
}

describe.skipIf(reason !== undefined)("the Hooks section's hook service, in real Chromium", () => {
  it('shows who answers the hooks, in plain words, for every state the probe tells', async () => {
    const serve = await startServe({ pollIntervalMs: 500 });
    cleanups.push(() => serve.stop());
    cleanups.push(() => rmSync(serve.home, { recursive: true, force: true }));
    const data = join(serve.home, 'data');
    const endpointFile = hookEndpointPath(data);
    const env = { HOME: serve.home, CORRAL_DATA_DIR: data, CORRAL_CONFIG: join(serve.home, 'config.json') };
    // Codex's hooks run the hook client, which asks the running Corral first.
    const installed = await runCli(['hooks', 'install', '--agent', 'codex'], {
      env,
      command: [process.execPath, BUILT_CLI],
    });
    expect(installed.code, installed.stderr).toBe(0);
    const { port } = await waitFor('the serve answering hooks', async () => {
      const p = await probeHookEndpoint(data);
      return p.state === 'answering' && p;
    });

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
    const meanwhile = 'the hook client (Codex CLI) falls back to the one-shot reader, a process per call';

    await expect.poll(() => service.getAttribute('data-state'), { timeout: 10_000 }).toBe('answering');
    expect(await badge.textContent()).toBe('answering');
    expect(await summary.textContent()).toBe(
      `A running Corral answers the agents' hooks on 127.0.0.1:${port}.`,
    );
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

    // A listener that takes the connection and never answers (a hung service).
    const hungPort = await listen(createServer(() => undefined));
    writeOwnFileAtomically(endpointFile, `${hungPort} ${randomBytes(32).toString('hex')}\n`);
    await shows('not-answering');
    expect(await badge.textContent()).toBe('hung');
    expect(await summary.textContent()).toBe(
      `127.0.0.1:${hungPort}, the port the hooks were given, took the connection but did not answer within 1 s (a hung service, or another program).`,
    );
    expect(await meaning.textContent()).toBe(`Until a Corral answers, ${meanwhile}.`);
    await service.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${ARTIFACTS}/hook-service-hung-420.png` });

    // Another program on the port.
    const otherPort = await listen(createHttpServer((_req, res) => res.writeHead(404).end('not found')));
    writeOwnFileAtomically(endpointFile, `${otherPort} ${randomBytes(32).toString('hex')}\n`);
    await shows('not-corral');
    expect(await summary.textContent()).toBe(
      `Something other than Corral answers on 127.0.0.1:${otherPort} (HTTP 404), the port the hooks were given.`,
    );
    expect(await meaning.textContent()).toContain(`Until a Corral answers there, ${meanwhile}.`);
    expect(await meaning.textContent()).toContain(`remove ${endpointFile} and restart Corral`);

    // The serve's own port, with a token it did not read (the file written again after it started).
    writeOwnFileAtomically(endpointFile, `${port} ${randomBytes(32).toString('hex')}\n`);
    await shows('token-refused');
    expect(await badge.textContent()).toBe('token refused');
    expect(await summary.textContent()).toContain(`The Corral on 127.0.0.1:${port} refuses the hooks' token`);
    expect(await meaning.textContent()).toBe(`Until it is restarted, ${meanwhile}.`);

    // Claude Code's http hooks, installed to post to the serve's port; then the endpoint names a port
    // nobody listens on: http hooks have no fallback, and they post elsewhere.
    const http = await runCli(['hooks', 'install', '--agent', 'claude-code', '--http'], {
      env,
      command: [process.execPath, BUILT_CLI],
    });
    expect(http.code, http.stderr).toBe(0);
    const deadPort = await freeLoopbackPort();
    writeOwnFileAtomically(endpointFile, `${deadPort} ${randomBytes(32).toString('hex')}\n`);
    await shows('not-listening');
    expect(await summary.textContent()).toBe(
      `Nothing answers on 127.0.0.1:${deadPort}, the port the hooks were given: no Corral service runs, or it could not take the port (its log says why).`,
    );
    expect(await meaning.textContent()).toBe(
      `Until one answers, ${meanwhile}; the http hooks (Claude Code) get no answer, so no note.`,
    );
    expect(await service.getByTestId('hook-service-elsewhere').textContent()).toBe(
      `The http hooks of Claude Code post to port ${port}, not ${deadPort}: run corral hooks install --http again.`,
    );
    await service.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${ARTIFACTS}/hook-service-not-listening-420.png` });

    // No endpoint file at all.
    rmSync(endpointFile);
    await shows('none');
    expect(await summary.textContent()).toBe('No Corral service has answered hooks here yet.');
    expect(await meaning.textContent()).toBe(
      `The hook client (Codex CLI) falls back to the one-shot reader, a process per call; the http hooks (Claude Code) get no answer, so no note. A running Corral (the app, corral watch, corral serve, corral service) answers them.`,
    );
    expect(await noHorizontalScroll(page)).toBe(true);
    expect(await withinWidth(page, '.hook-service, .hook-service p', POPOVER.width)).toBe(true);
    await service.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${ARTIFACTS}/hook-service-none-420.png` });
    expect(errors).toEqual([]);
  });
});
