import type { HookEndpointProbe } from '../../core/facade/setup';
import type { HooksAskingService } from '../../../shared/hook-endpoint';
import {
  hookEndpointWords,
  hooksPostingElsewhere,
  httpHooksWords,
} from '../../../shared/words/hook-endpoint-words';

export type { HooksAskingService };

/**
 * Pure: the `corral hooks status` line on the running Corral that answers hooks, in the desktop page's
 * words: who answers on the socket (and, with http hooks, on their port), and when none does, why and
 * what the hooks do meanwhile.
 */
export function hookEndpointLine(probe: HookEndpointProbe, asking: HooksAskingService): string {
  const words = hookEndpointWords({ ...probe, asking });
  const http = httpHooksWords(probe);
  const elsewhere = hooksPostingElsewhere({ port: probe.port, asking });
  const stalePort = elsewhere ? ` ${elsewhere}: run \`corral hooks install --http\` again.` : '';
  return `Hook service: ${words.summary} ${words.meaning}${http ? ` ${http}` : ''}${stalePort}`;
}
