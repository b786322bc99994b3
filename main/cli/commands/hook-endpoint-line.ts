import type { HookEndpointProbe } from '../../core/hooks-setup/hook-endpoint-probe';
import {
  hooksMeanwhile,
  hooksPostingElsewhere,
  type HooksAskingService,
} from '../../../shared/hook-endpoint';

export type { HooksAskingService };

/**
 * Pure: the `corral hooks status` line on the running Corral that answers hooks, from a probe of the
 * endpoint file's port: who answers, and when none does, why and what the hooks do meanwhile.
 */
export function hookEndpointLine(probe: HookEndpointProbe, asking: HooksAskingService): string {
  const at = `127.0.0.1:${probe.port}`;
  const meanwhile = hooksMeanwhile(asking);
  let line: string;
  switch (probe.state) {
    case 'answering':
      line = `a running Corral answers hooks on ${at} (${probe.path}).`;
      break;
    case 'none':
      line = `no Corral service has answered hooks here (no ${probe.path}); ${meanwhile}. A running Corral (the app, corral watch, corral serve, corral service) writes it and answers.`;
      break;
    case 'not-listening':
      line = `nothing answers on ${at}, the port ${probe.path} names: no Corral service runs, or it could not take the port (its log says why). Until one answers, ${meanwhile}.`;
      break;
    case 'not-answering':
      line = `${at}, the port ${probe.path} names, took the connection but did not answer within 1 s (a hung service, or another program). Until a Corral answers, ${meanwhile}.`;
      break;
    case 'token-refused':
      line = `the Corral on ${at} refuses the token in ${probe.path}: it read another token (the file was written again after it started, or it uses another data directory). Until it is restarted, ${meanwhile}.`;
      break;
    case 'not-corral':
      line = `something other than Corral answers on ${at} (${probe.detail ?? 'not Corral'}), the port ${probe.path} names. Until a Corral answers there, ${meanwhile}. Stop that program, or remove ${probe.path} and restart Corral (it picks another port), then run \`corral hooks install\` again.`;
      break;
    case 'unreadable':
      line = `cannot read ${probe.path}: ${probe.detail ?? 'unreadable'}; ${meanwhile}.`;
      break;
  }
  const elsewhere = hooksPostingElsewhere({ port: probe.port, asking });
  const stalePort = elsewhere ? ` ${elsewhere}: run \`corral hooks install --http\` again.` : '';
  return `Hook service: ${line}${stalePort}`;
}
