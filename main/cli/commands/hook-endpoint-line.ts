import type { HookEndpointProbe } from '../../core/hooks-setup/hook-endpoint-probe';

/** The installed hooks that ask the running Corral, by agent label (from `corral hooks status`). */
export interface HooksAskingService {
  /** Agents whose command hooks run the hook client (it falls back to the one-shot reader). */
  client: string[];
  /** Agents with http hooks (no fallback: without an answer they say nothing), and the ports they post to. */
  http: { label: string; port: number }[];
}

function list(labels: readonly string[]): string {
  return labels.length <= 1 ? (labels[0] ?? '') : `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`;
}

/** What the hooks do while no Corral answers them. */
function withoutService(asking: HooksAskingService): string {
  const parts: string[] = [];
  if (asking.client.length > 0) {
    parts.push(
      `the hook client (${list(asking.client)}) falls back to the one-shot reader, a process per call`,
    );
  }
  const http = [...new Set(asking.http.map((h) => h.label))];
  if (http.length > 0) parts.push(`the http hooks (${list(http)}) get no answer, so no note`);
  return parts.length > 0 ? parts.join('; ') : 'hooks fall back to the one-shot reader';
}

/**
 * Pure: the `corral hooks status` line on the running Corral that answers hooks, from a probe of the
 * endpoint file's port: who answers, and when none does, why and what the hooks do meanwhile.
 */
export function hookEndpointLine(probe: HookEndpointProbe, asking: HooksAskingService): string {
  const at = `127.0.0.1:${probe.port}`;
  const meanwhile = withoutService(asking);
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
  const elsewhere = asking.http.filter((h) => probe.port !== undefined && h.port !== probe.port);
  const stalePort =
    elsewhere.length > 0
      ? ` The http hooks of ${list([...new Set(elsewhere.map((h) => h.label))])} post to port ${[...new Set(elsewhere.map((h) => h.port))].join(', ')}, not ${probe.port}: run \`corral hooks install --http\` again.`
      : '';
  return `Hook service: ${line}${stalePort}`;
}
