import type {
  ClientMessage,
  CorralApi,
  PushChannel,
  PushContract,
  RequestChannel,
  RequestOf,
  ResponseOf,
  ServerMessage,
} from '../../../shared/contract';
import { PUSH_CHANNELS } from '../../../shared/contract';
import { reconnectDelay } from './backoff';

/**
 * `stale`: the server answers but refuses this page's token — `corral serve` restarted and made a
 * new one. Reconnecting cannot help, so the API stops trying.
 */
export type SocketStatus = 'connecting' | 'open' | 'closed' | 'stale';

export interface WebSocketApi extends CorralApi {
  onStatus(listener: (status: SocketStatus) => void): () => void;
  /** Closes for good: no more reconnects, pending requests rejected. */
  close(): void;
}

type SocketLike = Pick<WebSocket, 'readyState' | 'send' | 'close'> & {
  onopen: ((event: Event) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
};

export interface WebSocketApiOptions {
  url: string;
  createSocket?: (url: string) => SocketLike;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  /**
   * Whether the server itself is up (it serves its page without a token). Asked when a socket is
   * refused before it ever opened: up means the token is the problem.
   */
  probeServer?: () => Promise<boolean>;
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

const OPEN = 1;

function parseServerMessage(data: unknown): ServerMessage | null {
  if (typeof data !== 'string') return null;
  try {
    const message = JSON.parse(data) as ServerMessage;
    return message && typeof message === 'object' && 'kind' in message ? message : null;
  } catch {
    return null;
  }
}

/** The CorralApi over `corral serve`'s WebSocket: numbered requests, pushes, reconnect with backoff. */
export function createWebSocketApi(options: WebSocketApiOptions): WebSocketApi {
  const createSocket = options.createSocket ?? ((url: string) => new WebSocket(url));
  const setTimer = options.setTimer ?? ((fn: () => void, ms: number) => setTimeout(fn, ms));
  const clearTimer = options.clearTimer ?? ((handle: unknown) => clearTimeout(handle as number));

  let nextId = 1;
  let attempt = 0;
  let closedForGood = false;
  let reconnectTimer: unknown = null;
  let socket: SocketLike;
  const pending = new Map<number, Pending>();
  const unsent: ClientMessage[] = [];
  const pushListeners = new Map<PushChannel, Set<(payload: unknown) => void>>();
  const statusListeners = new Set<(status: SocketStatus) => void>();

  const emitStatus = (status: SocketStatus) => statusListeners.forEach((listener) => listener(status));

  const rejectAll = (reason: string) => {
    const error = new Error(reason);
    for (const entry of pending.values()) entry.reject(error);
    pending.clear();
    unsent.length = 0;
  };

  const handleMessage = (message: ServerMessage) => {
    if (message.kind === 'response') {
      const entry = pending.get(message.id);
      if (!entry) return;
      pending.delete(message.id);
      if (message.ok) entry.resolve(message.payload);
      else entry.reject(new Error(message.error));
      return;
    }
    if (message.kind === 'push' && (PUSH_CHANNELS as readonly string[]).includes(message.channel)) {
      pushListeners.get(message.channel)?.forEach((listener) => listener(message.payload));
    }
  };

  const connect = () => {
    emitStatus('connecting');
    socket = createSocket(options.url);
    let opened = false;
    socket.onopen = () => {
      opened = true;
      attempt = 0;
      emitStatus('open');
      for (const message of unsent.splice(0)) socket.send(JSON.stringify(message));
    };
    socket.onmessage = (event) => {
      const message = parseServerMessage(event.data);
      if (message) handleMessage(message);
    };
    socket.onerror = () => {
      // The close event follows and carries the reconnect.
    };
    socket.onclose = () => {
      rejectAll('connection to corral closed');
      emitStatus('closed');
      if (closedForGood) return;
      const retry = () => {
        reconnectTimer = setTimer(connect, reconnectDelay(attempt++));
      };
      if (opened || !options.probeServer) return retry();
      options.probeServer().then((up) => {
        if (closedForGood) return;
        if (!up) return retry();
        closedForGood = true;
        emitStatus('stale');
      }, retry);
    };
  };

  connect();

  return {
    request<C extends RequestChannel>(channel: C, payload: RequestOf<C>): Promise<ResponseOf<C>> {
      if (closedForGood) return Promise.reject(new Error('connection to corral closed'));
      const message: ClientMessage = { kind: 'request', id: nextId++, channel, payload };
      return new Promise<ResponseOf<C>>((resolve, reject) => {
        pending.set(message.id, { resolve: resolve as (value: unknown) => void, reject });
        if (socket.readyState === OPEN) socket.send(JSON.stringify(message));
        else unsent.push(message);
      });
    },
    on<C extends PushChannel>(channel: C, listener: (payload: PushContract[C]) => void): () => void {
      const listeners = pushListeners.get(channel) ?? new Set();
      pushListeners.set(channel, listeners);
      const untyped = listener as (payload: unknown) => void;
      listeners.add(untyped);
      return () => listeners.delete(untyped);
    },
    onStatus(listener) {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
    close() {
      closedForGood = true;
      if (reconnectTimer !== null) clearTimer(reconnectTimer);
      rejectAll('connection to corral closed');
      socket.close();
    },
  };
}
