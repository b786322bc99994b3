import { ensureHookEndpoint } from '../core/hooks-setup/hook-endpoint';
import { startHookServer, type RunningHookServer } from './hook-server';
import { serviceHookContextFactory, type ServiceHookWiring } from './service-hook-context';

/**
 * Starts answering agents' hooks beside a running service (watch, serve, the user service); resolves
 * to null when this platform's hooks run one-shot, or the port cannot be had (then the hooks fall back
 * to their one-shot reader, or say nothing). Never throws: a problem is reported through onError.
 * `monitor`: what the monitor running in this thread knows (RunningService.hookWiring): the pid
 * counter's readings and the ids it gave groups.
 */
export async function startServiceHooks(
  dataDir: string,
  onError: (step: string, err: unknown) => void,
  monitor?: Pick<ServiceHookWiring, 'monitorReadings' | 'knownGroupId'>,
): Promise<RunningHookServer | null> {
  try {
    const context = serviceHookContextFactory(dataDir, '/proc', { ...monitor });
    if (!context) return null;
    const endpoint = ensureHookEndpoint(dataDir);
    return await startHookServer(endpoint, context, (err) => onError('hook request', err));
  } catch (err) {
    onError('hook server', err);
    return null;
  }
}
