import { COMMAND_SPECS } from '../command-specs';
import { parseCommandArgs } from '../parse-command-args';
import type { Settings } from '../../../shared/model';
import { resolveToken, TOKEN_ENV } from '../../metrics/bearer-token';
import { exposeMetrics } from '../../metrics/expose-metrics';
import { isLoopbackHost, startMetricsServer } from '../../metrics/metrics-server';
import type { LoadedConfig } from '../../core/facade/service';
import { startCliService } from '../cli-service';
import { untilSignalled } from '../shutdown';
import { UsageError } from '../../common/usage-error';
import { listenPort } from '../../common/listen-port';

/** `corral metrics`: Prometheus metrics without the UI; loopback unless --host says otherwise. */
export async function runMetrics(
  args: string[],
  settings: Settings,
  out: (text: string) => void,
  config?: LoadedConfig,
): Promise<number> {
  const { values } = parseCommandArgs(COMMAND_SPECS.metrics, args);
  const port = listenPort(values.port);
  const host = values.host;
  if (host === '') throw new UsageError('--host: expected an address such as 127.0.0.1');
  const token = resolveToken({ token: values.token, tokenFile: values['token-file'] }, process.env);
  if (!isLoopbackHost(host) && token === null)
    throw new UsageError(
      `--host ${host} is reachable from other machines: give a bearer token with --token-file F ` +
        `(owner-only permissions), $${TOKEN_ENV} or --token`,
    );

  const running = startCliService('metrics', settings, config);
  const exposed = exposeMetrics(running, token);
  let server;
  try {
    server = await startMetricsServer({
      host,
      port,
      handler: exposed.handler,
      tokenRequired: token !== null,
    });
  } catch (err) {
    exposed.stop();
    await running.stop();
    process.stderr.write(`corral metrics: cannot listen on ${host}:${port}: ${(err as Error).message}\n`);
    return 1;
  }
  out(`Corral metrics on ${server.url}${token === null ? '' : ' (bearer token required)'}`);
  await untilSignalled('metrics');
  await server.close();
  exposed.stop();
  await running.stop();
  return 0;
}
