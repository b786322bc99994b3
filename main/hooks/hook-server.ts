import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { isHookAgent } from '../core/hooks-setup/hook-agents';
import { HOOK_TOKEN_HEADER, type HookEndpoint } from '../core/hooks-setup/hook-endpoint';
import { answerHook, type ServiceHookContext } from './hook-answer';

const MAX_BODY_BYTES = 1024 * 1024;
/** A request whose body has not arrived by then is dropped: the agent's own deadline is longer. */
const BODY_DEADLINE_MS = 2_000;

export interface HookServerStats {
  /** Hook requests answered (with a note or with nothing). */
  answered: number;
  /** Requests refused (wrong token, host, method or path) or that failed inside. */
  refused: number;
  failed: number;
}

export interface RunningHookServer {
  port: number;
  stats: HookServerStats;
  close(): Promise<void>;
}

function tokenMatches(given: string | string[] | undefined, token: string): boolean {
  if (typeof given !== 'string' || given.length !== token.length) return false;
  return timingSafeEqual(Buffer.from(given), Buffer.from(token));
}

/**
 * Answers agents' hooks for a running Corral on 127.0.0.1:<endpoint port>: POST /hook/<agent>/<event>
 * with the agent's JSON payload, the token in `x-corral-token`, `Host: 127.0.0.1:<port>` (a page in a
 * browser cannot name another host to reach it by DNS rebinding) and a JSON content type (a page cannot
 * send one without a CORS preflight, which is never granted). The answer is 200 with what the one-shot
 * hook would print, or an empty body; anything refused is a 4xx with no body, which every agent treats
 * as a hook that said nothing.
 */
export function startHookServer(
  endpoint: HookEndpoint,
  context: () => ServiceHookContext,
  onError: (err: unknown) => void,
): Promise<RunningHookServer> {
  const stats: HookServerStats = { answered: 0, refused: 0, failed: 0 };
  const host = `127.0.0.1:${endpoint.port}`;
  const refuse = (res: ServerResponse, status: number): void => {
    stats.refused++;
    // Marked as Corral's, so `corral hooks status` tells a refused token from another program's answer.
    res.writeHead(status, { 'content-length': 0, connection: 'close', 'x-corral-hook': 'refused' }).end();
  };
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    if (req.headers.host !== host || !tokenMatches(req.headers[HOOK_TOKEN_HEADER], endpoint.token)) {
      return refuse(res, 403);
    }
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
      return refuse(res, 400);
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
        refuse(res, 413);
        req.destroy();
      } else chunks.push(c);
    });
    req.on('error', () => clearTimeout(timer));
    req.on('end', () => {
      clearTimeout(timer);
      if (size > MAX_BODY_BYTES) return;
      let text = '';
      try {
        const client = String(req.headers['x-corral-client'] ?? '')
          .split(' ')
          .map(Number)
          .filter((n) => Number.isSafeInteger(n) && n > 1);
        text = answerHook(agent, event, Buffer.concat(chunks).toString('utf8'), context(), client);
        stats.answered++;
      } catch (err) {
        stats.failed++;
        onError(err);
      }
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(text),
        // What the command hook client (hook-client-script.ts) takes as Corral's own answer.
        'x-corral-hook': '1',
      });
      res.end(text);
    });
  };
  const server: Server = createServer(handle);
  server.keepAliveTimeout = 5_000;
  server.headersTimeout = BODY_DEADLINE_MS;
  server.requestTimeout = BODY_DEADLINE_MS;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(endpoint.port, '127.0.0.1', () => {
      server.off('error', reject);
      server.on('error', onError);
      resolve({
        port: endpoint.port,
        stats,
        close: () =>
          new Promise<void>((r) => {
            server.close(() => r());
            server.closeAllConnections();
          }),
      });
    });
  });
}
