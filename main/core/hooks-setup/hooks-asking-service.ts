import type { HooksAskingService } from '../../../shared/hook-endpoint';
import { HOOK_AGENT_SPECS } from './hook-agents';
import type { HooksStatus } from './hooks-setup';

/** The installed hooks that ask the running Corral: a hook client's command (one of `clients`), or an http hook. */
export function hooksAskingService(
  statuses: readonly HooksStatus[],
  clients: readonly string[],
): HooksAskingService {
  const asking: HooksAskingService = { client: [], http: [] };
  for (const s of statuses) {
    const label = HOOK_AGENT_SPECS[s.agent].label;
    const handlers = Object.values(s.events);
    if (handlers.some((h) => !h.startsWith('http://') && clients.some((c) => h.includes(c))))
      asking.client.push(label);
    for (const url of new Set(handlers.filter((h) => h.startsWith('http://')))) {
      asking.http.push({ label, port: Number(new URL(url).port) });
    }
  }
  return asking;
}
