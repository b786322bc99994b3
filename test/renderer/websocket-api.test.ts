import { describe, expect, it } from 'vitest';
import type { ClientMessage, ServerMessage } from '../../shared/contract';
import { reconnectDelay } from '../../renderer/src/transport/backoff';
import { apiSocketUrl, tokenFromLocation } from '../../renderer/src/transport/serve-url';
import { createWebSocketApi, type SocketStatus } from '../../renderer/src/transport/websocket-api';
import { pickApi } from '../../renderer/src/transport/pick-api';
import type { CorralApi } from '../../shared/contract';
import { makeSnapshot } from './support/fixtures';

/** Stands in for the browser's WebSocket object; the test plays the server. */
class TestSocket {
  readyState = 0;
  sent: ClientMessage[] = [];
  closed = false;
  onopen: ((event: Event) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;

  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(JSON.parse(data) as ClientMessage);
  }
  close() {
    this.closed = true;
  }
  serverOpens() {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }
  serverSends(message: ServerMessage | string) {
    const data = typeof message === 'string' ? message : JSON.stringify(message);
    this.onmessage?.(new MessageEvent('message', { data }));
  }
  serverCloses() {
    this.readyState = 3;
    this.onclose?.(new CloseEvent('close'));
  }
}

function setup(probeServer?: () => Promise<boolean>) {
  const sockets: TestSocket[] = [];
  const timers: Array<{ fn: () => void; ms: number }> = [];
  const statuses: SocketStatus[] = [];
  const api = createWebSocketApi({
    url: 'ws://host/api?token=t',
    createSocket: (url) => {
      const socket = new TestSocket(url);
      sockets.push(socket);
      return socket;
    },
    setTimer: (fn, ms) => timers.push({ fn, ms }),
    clearTimer: () => timers.splice(0),
    ...(probeServer ? { probeServer } : {}),
  });
  api.onStatus((s) => statuses.push(s));
  return { api, sockets, timers, statuses, socket: () => sockets[sockets.length - 1]! };
}

describe('serve URL', () => {
  it('reads the token from the query, then the fragment', () => {
    expect(tokenFromLocation({ search: '?token=abc', hash: '' })).toBe('abc');
    expect(tokenFromLocation({ search: '', hash: '#token=xyz' })).toBe('xyz');
    expect(tokenFromLocation({ search: '?token=abc', hash: '#token=xyz' })).toBe('abc');
    expect(tokenFromLocation({ search: '?other=1', hash: '' })).toBeNull();
  });

  it('builds ws or wss from the page protocol', () => {
    expect(apiSocketUrl({ protocol: 'http:', host: '127.0.0.1:7070' }, 'a b')).toBe(
      'ws://127.0.0.1:7070/api?token=a%20b',
    );
    expect(apiSocketUrl({ protocol: 'https:', host: 'box' }, 't')).toBe('wss://box/api?token=t');
  });
});

describe('websocket api', () => {
  it('queues requests until open, numbers them, and settles each by id', async () => {
    const { api, socket } = setup();
    const first = api.request('snapshot:get', undefined);
    const second = api.request('incidents:list', { limit: 5 });
    expect(socket().sent).toEqual([]);
    socket().serverOpens();
    expect(socket().sent).toEqual([
      { kind: 'request', id: 1, channel: 'snapshot:get', payload: undefined },
      { kind: 'request', id: 2, channel: 'incidents:list', payload: { limit: 5 } },
    ]);
    const third = api.request('settings:get', undefined);
    expect(socket().sent[2]!.id).toBe(3);

    socket().serverSends({ kind: 'response', id: 2, ok: false, error: 'no database' });
    socket().serverSends({ kind: 'response', id: 1, ok: true, payload: makeSnapshot(9, []) });
    await expect(first).resolves.toMatchObject({ seq: 9 });
    await expect(second).rejects.toThrow('no database');
    socket().serverCloses();
    await expect(third).rejects.toThrow(/closed/);
  });

  it('delivers pushes to listeners of their channel until unsubscribed', () => {
    const { api, socket } = setup();
    const seen: number[] = [];
    const off = api.on('snapshot', (s) => seen.push(s.seq));
    socket().serverOpens();
    socket().serverSends({ kind: 'push', channel: 'snapshot', payload: makeSnapshot(1, []) });
    socket().serverSends('not json');
    socket().serverSends({ kind: 'push', channel: 'event', payload: {} } as ServerMessage);
    off();
    socket().serverSends({ kind: 'push', channel: 'snapshot', payload: makeSnapshot(2, []) });
    expect(seen).toEqual([1]);
  });

  it('rejects pending requests on close and reconnects with growing delays', async () => {
    const { api, sockets, timers, statuses, socket } = setup();
    socket().serverOpens();
    const pending = api.request('snapshot:get', undefined);
    socket().serverCloses();
    await expect(pending).rejects.toThrow(/closed/);
    expect(timers.map((t) => t.ms)).toEqual([500]);

    timers.shift()!.fn();
    expect(sockets).toHaveLength(2);
    socket().serverCloses();
    expect(timers.map((t) => t.ms)).toEqual([1000]);
    timers.shift()!.fn();
    socket().serverOpens();
    socket().serverCloses();
    // A successful open resets the backoff.
    expect(timers.map((t) => t.ms)).toEqual([500]);
    expect(statuses).toEqual(['open', 'closed', 'connecting', 'closed', 'connecting', 'open', 'closed']);
  });

  it('stops reconnecting once closed for good', async () => {
    const { api, timers, socket } = setup();
    const pending = api.request('snapshot:get', undefined);
    api.close();
    await expect(pending).rejects.toThrow(/closed/);
    expect(socket().closed).toBe(true);
    socket().serverCloses();
    expect(timers).toEqual([]);
    await expect(api.request('snapshot:get', undefined)).rejects.toThrow(/closed/);
  });

  it('says the server restarted, and stops retrying, when the server is up but refuses the token', async () => {
    let serverUp = false;
    const { sockets, timers, statuses, socket } = setup(async () => serverUp);
    socket().serverOpens();
    socket().serverCloses();
    // A drop after a working connection retries without asking.
    expect(timers.map((t) => t.ms)).toEqual([500]);
    timers.shift()!.fn();
    // Refused before opening while the server is down: keep retrying.
    socket().serverCloses();
    await Promise.resolve();
    expect(timers).toHaveLength(1);
    timers.shift()!.fn();
    // Refused before opening while the server answers: the token is stale.
    serverUp = true;
    socket().serverCloses();
    await Promise.resolve();
    await Promise.resolve();
    expect(statuses[statuses.length - 1]).toBe('stale');
    expect(timers).toEqual([]);
    expect(sockets).toHaveLength(3);
  });

  it('backs off exponentially up to a cap', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((n) => reconnectDelay(n))).toEqual([
      500, 1000, 2000, 4000, 8000, 10000, 10000,
    ]);
  });
});

describe('pick api', () => {
  it('prefers the preload API and needs a token otherwise', () => {
    const corral: CorralApi = { request: () => Promise.reject(new Error('unused')), on: () => () => {} };
    expect(pickApi({ corral, location: { search: '', hash: '' } } as unknown as Window)).toEqual({
      kind: 'preload',
      api: corral,
    });
    expect(pickApi({ location: { search: '', hash: '' } } as unknown as Window)).toEqual({
      kind: 'missing-token',
    });
  });
});
