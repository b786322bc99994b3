import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startServer, type RunningServer } from '../../main/serve/start-server';
import type { ServerMessage } from '../../shared/contract';
import { groupMembers } from '../support/proc';
import { waitFor } from '../support/wait-for';
import { spawnedGroupView } from '../actions/group-target';
import { FakeCorralService, KNOWN_GROUP_ID, makeGroup } from '../transport/fake-corral-service';

let root: string;
let staticDir: string;
let service: FakeCorralService;
let server: RunningServer;
let port: number;
const sockets: WebSocket[] = [];

beforeEach(async () => {
  // A file beside the static folder, which no request path may reach.
  root = mkdtempSync(join(tmpdir(), 'corral-serve-'));
  staticDir = join(root, 'static');
  mkdirSync(join(staticDir, 'assets'), { recursive: true });
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Corral</title>');
  writeFileSync(join(staticDir, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(root, 'corral-serve-secret.txt'), 'secret');
  service = new FakeCorralService();
  server = await startServer(service, { port: 0, host: '127.0.0.1', staticDir });
  port = Number(new URL(server.url).port);
});

afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.terminate();
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

function get(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path, headers: { Host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** A real client; collects every message, and resolves with how the handshake went. */
function connect(
  query: string,
  headers: Record<string, string>,
): Promise<{ ws: WebSocket; messages: ServerMessage[]; refused?: { status: number; body: string } }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api${query}`, { headers });
    sockets.push(ws);
    const messages: ServerMessage[] = [];
    ws.on('message', (data) => messages.push(JSON.parse(data.toString())));
    ws.on('open', () => resolve({ ws, messages }));
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ ws, messages, refused: { status: res.statusCode!, body } }));
    });
    ws.on('error', (err) => {
      if (ws.readyState !== WebSocket.CLOSED) reject(err);
    });
  });
}

const ownOrigin = () => ({ Origin: `http://127.0.0.1:${port}` });
const tokenQuery = () => `?token=${server.token}`;

async function requestOver(
  ws: WebSocket,
  messages: ServerMessage[],
  id: number,
  channel: string,
  payload?: unknown,
) {
  ws.send(JSON.stringify({ kind: 'request', id, channel, payload }));
  return waitFor(`response ${id}`, () => messages.find((m) => m.kind === 'response' && m.id === id));
}

describe('corral serve', () => {
  it('prints a loopback URL with a random token', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{32}$/);
    expect(new URL(server.url).searchParams.get('token')).toBe(server.token);
  });

  it('serves the built renderer with a strict CSP', async () => {
    const res = await get('/');
    expect(res.status).toBe(200);
    expect(res.body).toContain('<title>Corral</title>');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain(`ws://127.0.0.1:${port}`);
    expect(csp).not.toContain('unsafe');
    expect((await get('/assets/app.js')).headers['content-type']).toMatch(/javascript/);
  });

  it('never serves files outside the static folder', async () => {
    expect((await get('/../corral-serve-secret.txt')).status).toBe(404);
    expect((await get('/%2e%2e/corral-serve-secret.txt')).status).toBe(404);
    expect((await get('/nope.js')).status).toBe(404);
  });

  it.each([
    [
      'a foreign Host (DNS rebinding)',
      { Host: 'evil.example:80' },
      /Host 'evil.example:80' is not this server/,
    ],
    ['a loopback host on another port', { Host: '127.0.0.1:1' }, /is not this server/],
    ['a foreign Origin', { Origin: 'http://evil.example' }, /Origin 'http:\/\/evil.example' is not allowed/],
  ])('refuses HTTP requests with %s', async (_name, headers, message) => {
    const res = await get('/', headers);
    expect(res.status).toBe(403);
    expect(res.body).toMatch(message);
  });

  it.each(['localhost', '[::1]'])('accepts the loopback Host %s', async (name) => {
    expect((await get('/', { Host: `${name}:${port}` })).status).toBe(200);
  });

  it.each([
    ['no token', '', () => ownOrigin(), /missing token/],
    ['a wrong token', '?token=wrong', () => ownOrigin(), /wrong token/],
    ['a token of the right length but wrong', '?token=' + 'A'.repeat(32), () => ownOrigin(), /wrong token/],
    ['a foreign Origin', 'TOKEN', () => ({ Origin: 'http://evil.example' }), /Origin .* is not allowed/],
    [
      'a lookalike Origin',
      'TOKEN',
      () => ({ Origin: `http://127.0.0.1:${port}.evil.example` }),
      /not allowed/,
    ],
    ['a foreign Host', 'TOKEN', () => ({ Host: 'evil.example' }), /Host 'evil.example' is not this server/],
  ])('refuses a WebSocket with %s (403)', async (_name, query, headers, message) => {
    const { refused } = await connect(query === 'TOKEN' ? tokenQuery() : query, headers());
    expect(refused).toEqual({ status: 403, body: expect.stringMatching(message) });
    expect(service.calls.filter((c) => c.method !== 'snapshot')).toEqual([]);
  });

  it('answers a valid request and pushes snapshots and events', async () => {
    const { ws, messages, refused } = await connect(tokenQuery(), ownOrigin());
    expect(refused).toBeUndefined();
    await waitFor('initial snapshot push', () =>
      messages.find((m) => m.kind === 'push' && m.channel === 'snapshot'),
    );

    const response = await requestOver(ws, messages, 1, 'settings:get');
    expect(response).toEqual({ kind: 'response', id: 1, ok: true, payload: service.settings() });

    service.emitSnapshot({ seq: 2, sampledAt: 5, groups: [] });
    service.emitEvent({ type: 'orphaned', at: 5, groupId: KNOWN_GROUP_ID, pid: 1, pgid: 1 });
    await waitFor(
      'pushes',
      () =>
        messages.some(
          (m) => m.kind === 'push' && m.channel === 'snapshot' && (m.payload as { seq: number }).seq === 2,
        ) && messages.some((m) => m.kind === 'push' && m.channel === 'event'),
    );
  });

  it('pushes nothing for a snapshot that changed nothing; snapshot:get and a newcomer get the one the deltas chain on', async () => {
    const group = makeGroup();
    const snapshotPushes = (messages: ServerMessage[]) =>
      messages.flatMap((m) => (m.kind === 'push' && m.channel.startsWith('snapshot') ? [m] : []));
    const { ws, messages } = await connect(tokenQuery(), ownOrigin());
    await waitFor('initial snapshot push', () => snapshotPushes(messages).length === 1);
    service.emitSnapshot({ seq: 2, sampledAt: 5, groups: [group] });
    service.emitSnapshot({ seq: 3, sampledAt: 6, groups: [structuredClone(group)] });

    const chained = { seq: 2, sampledAt: 6, groups: [group] };
    expect(await requestOver(ws, messages, 1, 'snapshot:get')).toMatchObject({ payload: chained });
    const newcomer = await connect(tokenQuery(), ownOrigin());
    await waitFor('the newcomer to get the snapshot whole', () => snapshotPushes(newcomer.messages)[0]);
    expect(snapshotPushes(newcomer.messages)[0]).toMatchObject({ channel: 'snapshot', payload: chained });

    service.emitSnapshot({ seq: 4, sampledAt: 7, groups: [] });
    const delta = { seq: 4, baseSeq: 2, sampledAt: 7, groups: [], removed: [group.id] };
    await waitFor('the delta', () => snapshotPushes(messages).length === 3);
    expect(snapshotPushes(messages).map((m) => m.kind === 'push' && [m.channel, m.payload])).toEqual([
      ['snapshot', expect.objectContaining({ seq: 1 })],
      ['snapshot', { seq: 2, sampledAt: 5, groups: [group] }],
      ['snapshot:delta', delta],
    ]);
  });

  it('stops a group by id, pushes teardown progress, and reports an unknown id as an error', async () => {
    const { leftover, view } = await spawnedGroupView();
    service.current = { seq: 2, sampledAt: 1, groups: [view] };
    const { ws, messages } = await connect(tokenQuery(), ownOrigin());
    const ok = await requestOver(ws, messages, 7, 'group:stop', { groupId: view.id });
    expect(ok).toMatchObject({ ok: true, payload: { groupId: view.id, clean: true } });
    expect(groupMembers(leftover.pgid)).toEqual([]);
    expect(messages.some((m) => m.kind === 'push' && m.channel === 'teardown:progress')).toBe(true);

    const unknown = await requestOver(ws, messages, 8, 'group:stop', { groupId: '4243:4243:987654' });
    expect(unknown).toEqual({
      kind: 'response',
      id: 8,
      ok: false,
      error: expect.stringMatching(/group 4243:4243:987654 is already gone/),
    });
    const rawPid = await requestOver(ws, messages, 9, 'group:stop', { groupId: 4242 });
    expect(rawPid).toMatchObject({ ok: false, error: expect.stringMatching(/not a raw PID or PGID/) });
  });

  it('answers malformed messages with errors and keeps serving', async () => {
    const { ws, messages } = await connect(tokenQuery(), ownOrigin());
    const errorsBefore = () => messages.filter((m) => m.kind === 'response' && !m.ok);
    ws.send('{not json');
    ws.send(JSON.stringify([1, 2]));
    ws.send(JSON.stringify({ kind: 'request', channel: 'snapshot:get' }));
    ws.send(JSON.stringify({ kind: 'subscribe', id: 3, channel: 'snapshot:get' }));
    ws.send(JSON.stringify({ kind: 'request', id: 4, channel: 'process:kill', payload: { pid: 1 } }));
    ws.send(JSON.stringify({ kind: 'request', id: 5, channel: 'snapshot:get', extra: true }));
    ws.send(Buffer.from([1, 2, 3]), { binary: true });
    await waitFor('seven error responses', () => errorsBefore().length === 7);
    // Dispatched requests answer asynchronously, so order is not part of the contract.
    expect(errorsBefore().map((m) => m.kind === 'response' && !m.ok && [m.id, m.error])).toEqual(
      expect.arrayContaining([
        [-1, 'invalid JSON'],
        [-1, 'a message must be a JSON object'],
        [-1, 'message.id must be an integer'],
        [3, "message.kind must be 'request'"],
        [4, expect.stringMatching(/unknown channel 'process:kill'/)],
        [5, "message has unknown key 'extra'"],
        [-1, expect.stringMatching(/binary frames/)],
      ]),
    );
    expect(await requestOver(ws, messages, 6, 'snapshot:get')).toMatchObject({ ok: true });
  });

  it('refuses an oversized payload with an error, and closes on an oversized frame without stopping', async () => {
    const { ws, messages } = await connect(tokenQuery(), ownOrigin());
    const over = await requestOver(ws, messages, 1, 'group:stop', {
      groupId: KNOWN_GROUP_ID,
      pad: 'x'.repeat(64 * 1024),
    });
    expect(over).toMatchObject({ ok: false, error: expect.stringMatching(/limit is 65536/) });

    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    ws.send('x'.repeat(1024 * 1024));
    expect(await closed).toBe(1009);

    const again = await connect(tokenQuery(), ownOrigin());
    expect(await requestOver(again.ws, again.messages, 2, 'snapshot:get')).toMatchObject({ ok: true });
    expect((await get('/')).status).toBe(200);
  });

  it('unsubscribes from the service and refuses connections after close', async () => {
    await connect(tokenQuery(), ownOrigin());
    expect(service.listenerCount()).toBe(2);
    await server.close();
    expect(service.listenerCount()).toBe(0);
    await expect(get('/')).rejects.toThrow(/ECONNREFUSED/);
    server = { ...server, close: async () => {} };
  });
});
