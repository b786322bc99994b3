import type { HooksAskingService } from '../../../shared/hook-endpoint';
import { HOOK_AGENT_SPECS } from './hook-agents';
import type { HooksStatus } from './hooks-setup';

/** The installed hooks that ask the running Corral: the hook client's command (`client`), or an http hook. */
export function hooksAskingService(statuses: readonly HooksStatus[], client: string): HooksAskingService {
  const asking: HooksAskingService = { client: [], http: [] };
  for (const s of statuses) {
    const label = HOOK_AGENT_SPECS[s.agent].label;
    const handlers = Object.values(s.events);
    if (handlers.some((h) => !h.startsWith('http://') && h.includes(client))) asking.client.push(label);
    for (const url of new Set(handlers.filter((h) => h.startsWith('http://')))) {
      asking.http.push({ label, port: Number(new URL(url).port) });
    }
  }
  return asking;
}
