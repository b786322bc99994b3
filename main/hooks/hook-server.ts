import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { HOOK_TOKEN_HEADER, type HookEndpoint } from '../core/hooks-setup/hook-endpoint';
import type { ServiceHookContext } from './hook-answer';
import {
  capHookServer,
  CONNECTIONS_CHECK_MS,
  hookRequestHandler,
  newHookServerStats,
  type HookServerStats,
} from './hook-request-handler';

export type { HookServerStats };

export interface RunningHookServer {
  port: number;
  stats: HookServerStats;
  close(): Promise<void>;
}

function tokenMatches(given: string | string[] | undefined, token: string): boolean {
  if (typeof given !== 'string' || given.length !== token.length) return false;
  return timingSafeEqual(Buffer.from(given), Buffer.from(token));
}

/** A capped http server (hook-request-handler.ts) for `handler`. */
export function cappedHookServer(handler: Parameters<typeof createServer>[1]): Server {
  const server = createServer({ connectionsCheckingInterval: CONNECTIONS_CHECK_MS }, handler);
  capHookServer(server);
  return server;
}

export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((r) => {
    server.close(() => r());
    server.closeAllConnections();
  });
}

/**
 * Answers Claude Code's http hooks (`corral hooks install --http`) for a running Corral on
 * 127.0.0.1:<endpoint port>: the requests of hook-request-handler.ts, only with the token in
 * `x-corral-token`, `Host: 127.0.0.1:<port>` (a page in a browser cannot name another host to reach it
 * by DNS rebinding) and a JSON content type (a page cannot send one without a CORS preflight, which is
 * never granted). The token keeps other users from asking; it cannot prove this server to the agent,
 * which is why http hooks are installed only on a port no other user may bind (http-hooks-port.ts).
 * Command hooks never come here: they ask the Unix socket (hook-socket-server.ts).
 */
export function startHookServer(
  endpoint: HookEndpoint,
  context: () => ServiceHookContext,
  onError: (err: unknown) => void,
  stats: HookServerStats = newHookServerStats(),
): Promise<RunningHookServer> {
  const host = `127.0.0.1:${endpoint.port}`;
  const server = cappedHookServer(
    hookRequestHandler(
      stats,
      context,
      onError,
      (req) => req.headers.host === host && tokenMatches(req.headers[HOOK_TOKEN_HEADER], endpoint.token),
    ),
  );
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(endpoint.port, '127.0.0.1', () => {
      server.off('error', reject);
      server.on('error', onError);
      resolve({ port: endpoint.port, stats, close: () => closeServer(server) });
    });
  });
}
