import { homedir } from 'node:os';
import { HOOK_AGENTS } from '../core/hooks-setup/hook-agents';
import { upgradeLegacyHookClient } from '../core/hooks-setup/hook-client-script';
import { peekHookEndpoint } from '../core/hooks-setup/hook-endpoint';
import { hooksStatus } from '../core/hooks-setup/hooks-setup';
import { portOnlyRootBinds } from '../core/hooks-setup/http-hooks-port';
import { newHookServerStats, type HookServerStats } from './hook-request-handler';
import { startHookSocketServer, type RunningHookSocket } from './hook-socket-server';
import { startTcpHooksRetrying, type RetryingHookServer } from './tcp-hooks-retrying';
import { serviceHookContextFactory, type ServiceHookWiring } from './service-hook-context';

export interface RunningServiceHooks {
  /** The Unix socket the command hooks ask, or null when it could not be had (onError said why). */
  socketPath: string | null;
  /** The TCP port of the installed http hooks, or null when none are installed. */
  port: number | null;
  /** Whether the service holds that port now (it keeps trying while another program holds it). */
  portListening(): boolean;
  /** Both listeners' counts. */
  stats: HookServerStats;
  close(): Promise<void>;
}

/** The ports the installed http hooks post to (`corral hooks install --http`), read from the agents' settings. */
function httpHookPorts(env: Readonly<Record<string, string | undefined>>, home: string): number[] {
  const ports = new Set<number>();
  for (const agent of HOOK_AGENTS) {
    for (const target of Object.values(hooksStatus(agent, { env, home }).events)) {
      const m = /^http:\/\/127\.0\.0\.1:(\d+)\//.exec(target);
      if (m) ports.add(Number(m[1]));
    }
  }
  return [...ports];
}

/**
 * Starts answering agents' hooks beside a running service (watch, serve, the user service, the
 * desktop's worker): command hooks on the Unix socket in the data directory, always; Claude Code's http
 * hooks on the endpoint's TCP port, only while some are installed to post there (retrying while
 * another program holds the port). Resolves to null when this platform's hooks run one-shot. Never
 * throws: a problem is reported through onError, and the hooks then fall back to their one-shot reader.
 * `monitor`: what the monitor running in this thread knows (RunningService.hookWiring): the pid
 * counter's readings and the ids it gave groups.
 */
export async function startServiceHooks(
  dataDir: string,
  onError: (step: string, err: unknown) => void,
  monitor?: Pick<ServiceHookWiring, 'monitorReadings' | 'knownGroupId'>,
  place: { env: Readonly<Record<string, string | undefined>>; home: string } = {
    env: process.env,
    home: homedir(),
  },
): Promise<RunningServiceHooks | null> {
  let context: ReturnType<typeof serviceHookContextFactory>;
  try {
    context = serviceHookContextFactory(dataDir, '/proc', { ...monitor });
  } catch (err) {
    onError('hook server', err);
    return null;
  }
  if (!context) return null;
  // An earlier Corral's client still in agents' settings would post to a TCP port anyone can take.
  if (upgradeLegacyHookClient(dataDir))
    onError(
      'hook client',
      new Error('replaced the TCP hook client of an earlier Corral with the socket client'),
    );
  const stats = newHookServerStats();
  let socket: RunningHookSocket | null = null;
  try {
    socket = await startHookSocketServer(dataDir, context, (err) => onError('hook request', err), stats);
  } catch (err) {
    onError('hook socket', err);
  }
  let tcp: RetryingHookServer | null = null;
  try {
    const endpoint = peekHookEndpoint(dataDir);
    // A port only root may bind is written by `hooks install --http` alone (http-hooks-port.ts): such an
    // endpoint means http hooks, whoever's settings hold them (the desktop's worker reads its own HOME).
    const wanted =
      endpoint &&
      (portOnlyRootBinds(endpoint.port) || httpHookPorts(place.env, place.home).includes(endpoint.port));
    if (endpoint && wanted) {
      tcp = startTcpHooksRetrying(endpoint, context, onError, stats);
    }
  } catch (err) {
    onError('hook server', err);
  }
  return {
    socketPath: socket?.path ?? null,
    port: tcp?.port ?? null,
    portListening: () => tcp?.listening() ?? false,
    stats,
    close: async () => {
      await Promise.all([socket?.close(), tcp?.close()]);
    },
  };
}
