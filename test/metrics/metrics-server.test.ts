// The /metrics server in-process, over real sockets: Host rules on loopback, methods, paths, and the
// bearer token when it is required.
import { request } from 'node:http';
import { Counter, Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { metricsHandler } from '../../main/metrics/metrics-endpoint';
import {
  isLoopbackHost,
  startMetricsServer,
  type RunningMetricsServer,
} from '../../main/metrics/metrics-server';

const TOKEN = '5e1f0c2b9a8d7e6f5a4b3c2d';
let server: RunningMetricsServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

function fetchFrom(
  address: string,
  port: number,
  { path = '/metrics', method = 'GET', headers = {} as Record<string, string> } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: address, port, path, method, headers }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function start(host: string, token: string | null): Promise<{ port: number; refreshed: () => number }> {
  const registry = new Registry();
  new Counter({ name: 'corral_test_total', help: 'a test counter', registers: [registry] }).inc(3);
  let refreshes = 0;
  const handler = metricsHandler({ registry, refresh: () => refreshes++, token });
  server = await startMetricsServer({ host, port: 0, handler, tokenRequired: token !== null });
  return { port: server.port, refreshed: () => refreshes };
}

describe('the metrics server', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.0.0.2', true],
    ['::1', true],
    ['localhost', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.0.2.10', false],
    ['127.example.com', false],
  ])('%s is loopback: %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });

  it('on loopback without a token: loopback Hosts and the bound address only, GET /metrics only', async () => {
    const { port, refreshed } = await start('127.0.0.2', null);
    expect(server!.url).toBe(`http://127.0.0.2:${port}/metrics`);
    const ok = await fetchFrom('127.0.0.2', port);
    expect(ok.status).toBe(200);
    expect(ok.body).toContain('corral_test_total 3');
    expect(refreshed()).toBe(1);
    expect((await fetchFrom('127.0.0.2', port, { headers: { Host: `localhost:${port}` } })).status).toBe(200);
    expect((await fetchFrom('127.0.0.2', port, { headers: { Host: `evil.example:${port}` } })).status).toBe(
      403,
    );
    expect((await fetchFrom('127.0.0.2', port, { headers: { Host: `127.0.0.2:${port + 1}` } })).status).toBe(
      403,
    );
    expect((await fetchFrom('127.0.0.2', port, { path: '/' })).status).toBe(404);
    expect((await fetchFrom('127.0.0.2', port, { method: 'POST' })).status).toBe(405);
    expect(refreshed()).toBe(2);
  });

  it('with a token: any Host, but only with Authorization: Bearer <token>; nothing is collected before', async () => {
    const { port, refreshed } = await start('127.0.0.1', TOKEN);
    const none = await fetchFrom('127.0.0.1', port, { headers: { Host: `corral.example:${port}` } });
    expect(none.status).toBe(401);
    expect(none.body).toBe('unauthorized: send Authorization: Bearer <token>\n');
    const wrong = await fetchFrom('127.0.0.1', port, {
      headers: { Authorization: 'Bearer 0000000000000000' },
    });
    expect(wrong.status).toBe(401);
    expect(refreshed()).toBe(0);
    const right = await fetchFrom('127.0.0.1', port, {
      headers: { Host: `corral.example:${port}`, Authorization: `Bearer ${TOKEN}` },
    });
    expect(right.status).toBe(200);
    expect(right.body).toContain('corral_test_total 3');
  });
});
