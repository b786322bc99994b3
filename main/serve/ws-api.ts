// The `/api` WebSocket: requests in (ClientMessage), responses and pushes out (ServerMessage).
// A bad message gets an error response on its own connection and nothing else changes.
import { WebSocket, type RawData, type WebSocketServer } from 'ws';
import type { ClientMessage, PushChannel, PushContract, ServerMessage } from '../../shared/contract';
import type { CorralService, SnapshotPush } from '../core/service';
import { dispatch } from '../transport/dispatch';
import { isPlainObject } from '../transport/schema-checks';

/** Past this many unsent bytes a client is too slow for snapshots; it gets the next one whole. */
const SLOW_CLIENT_BYTES = 4 * 1024 * 1024;
const MAX_IN_FLIGHT = 32;
/** Used in an error response when the message had no usable id. */
export const NO_ID = -1;

function send(ws: WebSocket, message: ServerMessage): void {
  if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
}

function parseClientMessage(data: RawData, isBinary: boolean): ClientMessage | { id: number; error: string } {
  if (isBinary) return { id: NO_ID, error: 'binary frames are not accepted; send JSON text' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(data.toString());
  } catch {
    return { id: NO_ID, error: 'invalid JSON' };
  }
  if (!isPlainObject(parsed)) return { id: NO_ID, error: 'a message must be a JSON object' };
  const id = Number.isSafeInteger(parsed.id) ? (parsed.id as number) : NO_ID;
  if (id === NO_ID) return { id, error: 'message.id must be an integer' };
  if (parsed.kind !== 'request') return { id, error: "message.kind must be 'request'" };
  const unknown = Object.keys(parsed).find((k) => !['kind', 'id', 'channel', 'payload'].includes(k));
  if (unknown) return { id, error: `message has unknown key '${unknown}'` };
  return { kind: 'request', id, channel: parsed.channel as string, payload: parsed.payload };
}

export class WsApi {
  /** Set while at least one page is connected: with none, the service builds and pushes nothing. */
  private unsubscribe: Array<() => void> = [];
  /** Clients that missed a delta (too slow): their next snapshot goes out whole. */
  private readonly behind = new WeakSet<WebSocket>();

  constructor(
    private readonly wss: WebSocketServer,
    private readonly service: CorralService,
  ) {
    wss.on('connection', (ws) => this.accept(ws));
  }

  private subscribe(): void {
    if (this.unsubscribe.length > 0) return;
    this.unsubscribe = [
      this.service.onSnapshotPush((push) => this.pushSnapshot(push)),
      this.service.onEvent((event) => this.broadcast('event', event)),
    ];
  }

  broadcast<C extends PushChannel>(channel: C, payload: PushContract[C]): void {
    if (this.wss.clients.size === 0) return;
    const text = JSON.stringify({ kind: 'push', channel, payload } satisfies ServerMessage);
    for (const ws of this.wss.clients) if (ws.readyState === WebSocket.OPEN) ws.send(text);
  }

  /**
   * Each client gets what changed since the snapshot it holds, or nothing when nothing did; one that
   * fell behind gets the snapshot the deltas chain on, whole.
   */
  private pushSnapshot(push: SnapshotPush): void {
    let whole: string | null = null;
    let part: string | null = null;
    for (const ws of this.wss.clients) {
      if (ws.readyState !== WebSocket.OPEN) continue;
      if (ws.bufferedAmount > SLOW_CLIENT_BYTES) {
        this.behind.add(ws);
        continue;
      }
      if (push.kind === 'whole' || this.behind.has(ws)) {
        this.behind.delete(ws);
        whole ??= JSON.stringify({
          kind: 'push',
          channel: 'snapshot',
          payload: push.kind === 'whole' ? push.snapshot : this.service.snapshot(),
        } satisfies ServerMessage);
        ws.send(whole);
      } else if (push.kind === 'delta') {
        part ??= JSON.stringify({
          kind: 'push',
          channel: 'snapshot:delta',
          payload: push.delta,
        } satisfies ServerMessage);
        ws.send(part);
      }
    }
  }

  stop(): void {
    for (const off of this.unsubscribe) off();
    this.unsubscribe = [];
  }

  private accept(ws: WebSocket): void {
    let inFlight = 0;
    this.subscribe();
    // ws removes a closed client from wss.clients before 'close' is emitted.
    ws.on('close', () => {
      if (this.wss.clients.size === 0) this.stop();
    });
    // Oversized frames (maxPayload) surface here; ws then closes that connection with 1009.
    ws.on('error', () => ws.terminate());
    ws.on('message', (data, isBinary) => {
      const message = parseClientMessage(data, isBinary);
      if ('error' in message)
        return send(ws, { kind: 'response', id: message.id, ok: false, error: message.error });
      if (inFlight >= MAX_IN_FLIGHT) {
        return send(ws, {
          kind: 'response',
          id: message.id,
          ok: false,
          error: 'too many requests in flight',
        });
      }
      inFlight++;
      void dispatch(this.service, message.channel, message.payload, (partial) =>
        this.broadcast('teardown:progress', partial),
      ).then((result) => {
        inFlight--;
        send(
          ws,
          result.ok
            ? { kind: 'response', id: message.id, ok: true, payload: result.payload }
            : { kind: 'response', id: message.id, ok: false, error: result.error },
        );
      });
    });
    try {
      send(ws, { kind: 'push', channel: 'snapshot', payload: this.service.snapshot() });
    } catch {
      // No snapshot yet: the client asks with snapshot:get or waits for the next push.
    }
  }
}
