import { ensureHookEndpoint } from '../core/hooks-setup/hook-endpoint';
import { startHookServer, type RunningHookServer } from './hook-server';
import { serviceHookContextFactory } from './service-hook-context';

/**
 * Starts answering agents' hooks beside a running service (watch, serve, the user service); resolves
 * to null when this platform's hooks run one-shot, or the port cannot be had (then the hooks fall back
 * to their one-shot reader, or say nothing). Never throws: a problem is reported through onError.
 */
export async function startServiceHooks(
  dataDir: string,
  onError: (step: string, err: unknown) => void,
): Promise<RunningHookServer | null> {
  try {
    const context = serviceHookContextFactory(dataDir);
    if (!context) return null;
    const endpoint = ensureHookEndpoint(dataDir);
    return await startHookServer(endpoint, context, (err) => onError('hook request', err));
  } catch (err) {
    onError('hook server', err);
    return null;
  }
}
