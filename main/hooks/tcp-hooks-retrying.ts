import type { HookEndpoint } from '../core/hooks-setup/hook-endpoint';
import { tcpPortOwners, uidsText } from '../core/hooks-setup/tcp-port-owners';
import type { ServiceHookContext } from './hook-answer';
import type { HookServerStats } from './hook-request-handler';
import { startHookServer, type RunningHookServer } from './hook-server';

export interface RetryingHookServer {
  port: number;
  /** Whether the port is held by this service now. */
  listening(): boolean;
  close(): Promise<void>;
}

const FIRST_RETRY_MS = 1_000;
const LAST_RETRY_MS = 30_000;

/** Who holds `port`, for a message: "another user (uid 65534)", "a process of yours", or "something". */
export function portHolderText(port: number): string {
  const owners = tcpPortOwners(port);
  if (!owners || owners.length === 0) return 'something';
  const me = process.geteuid?.();
  const others = owners.filter((uid) => uid !== me);
  return others.length > 0 ? `another user (${uidsText(others)})` : 'a process of yours (another Corral?)';
}

/**
 * The http hooks' TCP listener (hook-server.ts), kept trying while the port is held: the port is fixed
 * (the agents' settings name it), so a squat at start-up must not disable the hooks for the whole run.
 * Each failure says who holds the port (its owner from /proc/net/tcp); retries back off from 1 s to 30 s.
 */
export function startTcpHooksRetrying(
  endpoint: HookEndpoint,
  context: () => ServiceHookContext,
  onError: (step: string, err: unknown) => void,
  stats: HookServerStats,
): RetryingHookServer {
  let server: RunningHookServer | null = null;
  let closed = false;
  let timer: NodeJS.Timeout | null = null;
  let delay = FIRST_RETRY_MS;
  let said = false;
  const attempt = (): void => {
    timer = null;
    startHookServer(endpoint, context, (err) => onError('hook request', err), stats).then(
      (s) => {
        if (closed) return void s.close();
        server = s;
        if (said) onError('hook server', `took port ${endpoint.port} at last; the http hooks are answered`);
      },
      (err: NodeJS.ErrnoException) => {
        if (closed) return;
        if (!said) {
          const why =
            err.code === 'EADDRINUSE'
              ? `port ${endpoint.port} is held by ${portHolderText(endpoint.port)}`
              : String(err);
          onError(
            'hook server',
            `${why}: the http hooks get no answer until it is free; trying again every ${LAST_RETRY_MS / 1000} s at most`,
          );
          said = true;
        }
        timer = setTimeout(attempt, delay);
        timer.unref();
        delay = Math.min(delay * 2, LAST_RETRY_MS);
      },
    );
  };
  attempt();
  return {
    port: endpoint.port,
    listening: () => server !== null,
    close: async () => {
      closed = true;
      if (timer) clearTimeout(timer);
      await server?.close();
    },
  };
}
