// `corral metrics` and `corral serve --metrics` as users run them (the built CLI): loopback by default,
// a token required anywhere else, and a request without the right token refused.
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startMetricsProcess } from '../support/metrics-process';
import { runCli } from '../support/run-cli';
import { startServe } from '../support/serve-process';
import { tempDirForTest } from '../support/spawned-groups';

const TOKEN = 'c0ffee00d1e5e15e7a11b0a7f00dcafe';
const built = existsSync(resolve(__dirname, '../../out/main/corral.js'));
if (!built)
  console.log(
    'metrics.test.ts: the tests of the running server skipped, the CLI is not built (npm run build)',
  );

function get(
  host: string,
  port: number,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolveGet, reject) => {
    const req = request({ host, port, path, headers }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolveGet({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** This machine's own non-loopback IPv4 address, if it has one: traffic to it never leaves the host. */
function ownAddress(): string | null {
  for (const list of Object.values(networkInterfaces()))
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  return null;
}

function tokenFile(mode: number): string {
  const path = join(tempDirForTest('corral-token-'), 'metrics-token');
  writeFileSync(path, `${TOKEN}\n`);
  chmodSync(path, mode);
  return path;
}

describe('corral metrics: where it listens and who may read it', () => {
  it('refuses a non-loopback --host without a token, before listening', async () => {
    const run = await runCli(['metrics', '--host', '0.0.0.0', '--port', '0']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--host 0\.0\.0\.0 is reachable from other machines: give a bearer token/);
    expect(run.stdout).toBe('');
  });

  it('refuses a token file that group or others can read', async () => {
    const path = tokenFile(0o644);
    const run = await runCli(['metrics', '--host', '0.0.0.0', '--port', '0', '--token-file', path]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--token-file ${path}: readable or writable by group or others (mode 644)`);
    expect(run.stderr).toContain(`chmod 600 ${path}`);
  });

  it.skipIf(!built)('on a non-loopback bind, answers only requests with the bearer token', async () => {
    const corral = await startMetricsProcess([
      '--host',
      '0.0.0.0',
      '--port',
      '0',
      '--token-file',
      tokenFile(0o600),
    ]);
    expect(corral.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+\/metrics$/);
    const hosts = ['127.0.0.1', ownAddress()].filter((h): h is string => h !== null);
    for (const host of hosts) {
      const none = await get(host, corral.port, '/metrics');
      expect(none.status, host).toBe(401);
      expect(none.headers['www-authenticate']).toBe('Bearer realm="corral"');
      expect(none.body).not.toContain('corral_');
      const wrong = await get(host, corral.port, '/metrics', {
        Authorization: `Bearer ${TOKEN.slice(0, -1)}0`,
      });
      expect(wrong.status, host).toBe(401);
      expect(wrong.body).toBe('unauthorized: wrong bearer token\n');
      const basic = await get(host, corral.port, '/metrics', { Authorization: `Basic ${TOKEN}` });
      expect(basic.status, host).toBe(401);
      const right = await get(host, corral.port, '/metrics', { Authorization: `Bearer ${TOKEN}` });
      expect(right.status, host).toBe(200);
      expect(right.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(right.body).toMatch(/^corral_processes_seen \d+$/m);
      expect(right.body).toMatch(/^process_cpu_seconds_total /m);
    }
    expect(await corral.stop()).toBe(0);
    expect(corral.stderr()).toBe('');
  });

  it.skipIf(!built)(
    'on loopback by default, refuses a foreign Host (DNS rebinding) and serves only /metrics',
    async () => {
      const corral = await startMetricsProcess(['--port', '0']);
      expect(corral.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      const ok = await get('127.0.0.1', corral.port, '/metrics');
      expect(ok.status).toBe(200);
      expect(ok.body).toContain('# TYPE corral_leftover_cpu_seconds_total counter');
      expect(ok.body).toContain('corral_teardowns_total{outcome="refused"} 0');
      const rebound = await get('127.0.0.1', corral.port, '/metrics', {
        Host: `attacker.example:${corral.port}`,
      });
      expect(rebound.status).toBe(403);
      expect((await get('127.0.0.1', corral.port, '/')).status).toBe(404);
      expect(await corral.stop()).toBe(0);
    },
  );

  it.skipIf(!built)('corral serve --metrics adds /metrics behind the same Host check as the UI', async () => {
    const serve = await startServe({}, { args: ['--metrics'] });
    const port = Number(new URL(serve.url).port);
    const ok = await get('127.0.0.1', port, '/metrics', { Host: `127.0.0.1:${port}` });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatch(/^corral_processes_seen \d+$/m);
    const rebound = await get('127.0.0.1', port, '/metrics', { Host: `attacker.example:${port}` });
    expect(rebound.status).toBe(403);
    expect(await serve.stop()).toBe(0);
  });
});

describe('corral metrics: bad input', () => {
  it('refuses a port that is not one, with the usage', async () => {
    const run = await runCli(['metrics', '--port', '99999']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--port: expected 0..65535, got '99999'");
    expect(run.stderr).toContain('corral metrics [--token T | --token-file F] [--port N] [--host H]');
  });

  it('says in one line that the port is taken, and exits 1', async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', () => r()));
    const { port } = taken.address() as AddressInfo;
    try {
      const run = await runCli(['metrics', '--port', String(port)]);
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(
        `corral metrics: cannot listen on 127.0.0.1:${port}: listen EADDRINUSE: address already in use 127.0.0.1:${port}\n`,
      );
    } finally {
      await new Promise<void>((r) => taken.close(() => r()));
    }
  });
});
