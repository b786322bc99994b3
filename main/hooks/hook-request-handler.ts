import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { isHookAgent } from '../core/hooks-setup/hook-agents';
import { answerHook, type ServiceHookContext } from './hook-answer';
import { onlyAdditionalContext } from './hook-output';

const MAX_BODY_BYTES = 1024 * 1024;
/** A request whose body has not arrived by then is dropped: the agent's own deadline is longer. */
export const BODY_DEADLINE_MS = 2_000;
/**
 * A request that waited this long since its connection was accepted is answered "later" (200, empty,
 * `x-corral-hook: later`) instead of being worked on: the client's whole call has a 1 s deadline, so a
 * late answer would be thrown away, and every answer worked on past it makes the next ones later still.
 */
export const LATER_AFTER_MS = 600;
/** At most this many connections at once on each listener: Corral's own descriptors stay bounded. */
export const MAX_CONNECTIONS = 256;
/** An idle connection is closed after this long, checked this often (Node checks every 30 s by default). */
export const IDLE_TIMEOUT_MS = 2_000;
export const CONNECTIONS_CHECK_MS = 500;

export interface HookServerStats {
  /** Hook requests answered (with a note or with nothing). */
  answered: number;
  /** Requests refused (wrong token, host, method or path) or that failed inside. */
  refused: number;
  failed: number;
  /** Requests answered "later": the service was too busy to answer them within the client's deadline. */
  later: number;
}

export function newHookServerStats(): HookServerStats {
  return { answered: 0, refused: 0, failed: 0, later: 0 };
}

const acceptedAt = new WeakMap<Socket, number>();

/**
 * Bounds what a listener may cost Corral: at most MAX_CONNECTIONS connections (more are closed at
 * once), headers and body within BODY_DEADLINE_MS and idle connections closed after IDLE_TIMEOUT_MS,
 * both enforced every CONNECTIONS_CHECK_MS (the server must be created with connectionsCheckingInterval).
 */
export function capHookServer(server: Server): void {
  server.maxConnections = MAX_CONNECTIONS;
  server.keepAliveTimeout = 1_000;
  server.headersTimeout = BODY_DEADLINE_MS;
  server.requestTimeout = BODY_DEADLINE_MS;
  // No 'timeout' listener: Node destroys a socket idle this long.
  server.setTimeout(IDLE_TIMEOUT_MS);
  server.on('connection', (socket: Socket) => acceptedAt.set(socket, performance.now()));
}

function refuse(stats: HookServerStats, res: ServerResponse, status: number): void {
  stats.refused++;
  // Marked as Corral's, so `corral hooks status` tells a refused token from another program's answer.
  res.writeHead(status, { 'content-length': 0, connection: 'close', 'x-corral-hook': 'refused' }).end();
}

function answer(res: ServerResponse, text: string, mark: '1' | 'later'): void {
  res.writeHead(200, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    // What the command hook client (hook-client-script.ts) takes as Corral's own answer.
    'x-corral-hook': mark,
  });
  res.end(text);
}

/**
 * The handler both listeners share: GET /hook/stats, and POST /hook/<agent>/<event> with the agent's
 * JSON payload, answered 200 with what the one-shot hook would print (or nothing). `allowed` says
 * whether the request may be answered at all (the TCP listener's token and Host; the socket's peers
 * are the user's own). Anything refused is a 4xx with no body.
 */
export function hookRequestHandler(
  stats: HookServerStats,
  context: () => ServiceHookContext,
  onError: (err: unknown) => void,
  allowed: (req: IncomingMessage) => boolean,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    if (!allowed(req)) return refuse(stats, res, 403);
    if (req.method === 'GET' && req.url === '/hook/stats') {
      const body = JSON.stringify(stats);
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'x-corral-hook': '1',
      });
      res.end(body);
      return;
    }
    const m = /^\/hook\/([a-z-]+)\/([A-Za-z]+)$/.exec(req.url ?? '');
    const type = req.headers['content-type'] ?? '';
    if (req.method !== 'POST' || !m || !isHookAgent(m[1]!) || !/^application\/json\b/.test(type)) {
      return refuse(stats, res, 400);
    }
    const agent = m[1];
    const event = m[2]!;
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(() => req.destroy(), BODY_DEADLINE_MS);
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        clearTimeout(timer);
        refuse(stats, res, 413);
        req.destroy();
      } else chunks.push(c);
    });
    req.on('error', () => clearTimeout(timer));
    req.on('end', () => {
      clearTimeout(timer);
      if (size > MAX_BODY_BYTES) return;
      const waited = performance.now() - (acceptedAt.get(req.socket) ?? performance.now());
      if (waited > LATER_AFTER_MS) {
        stats.later++;
        return answer(res, '', 'later');
      }
      let text = '';
      try {
        const client = String(req.headers['x-corral-client'] ?? '')
          .split(' ')
          .map(Number)
          .filter((n) => Number.isSafeInteger(n) && n > 1);
        text = onlyAdditionalContext(
          answerHook(agent, event, Buffer.concat(chunks).toString('utf8'), context(), client),
        );
        stats.answered++;
      } catch (err) {
        stats.failed++;
        onError(err);
      }
      answer(res, text, '1');
    });
  };
}
