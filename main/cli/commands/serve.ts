import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join, resolve } from 'node:path';
import { COMMAND_SPECS } from '../command-specs';
import { parseCommandArgs } from '../parse-command-args';
import type { Settings } from '../../../shared/model';
import type { LoadedConfig } from '../../core/facade/service';
import { startCliService } from '../cli-service';
import { countingTeardowns } from '../../metrics/teardown-outcomes';
import { startServer } from '../../serve/start-server';
import { untilSignalled } from '../shutdown';
import { listenPort } from '../../common/listen-port';

/** out/renderer, whether running from source (tsx) or from the built out/main/corral.js. */
function rendererDir(): string | null {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const candidate of [
    join(here, '../renderer'),
    resolve(here, '../../../out/renderer'),
    resolve(here, '../../out/renderer'),
  ]) {
    if (existsSync(join(candidate, 'index.html'))) return candidate;
  }
  return null;
}

/** One line on stderr, no stack: what went wrong and what to do. */
function fail(message: string): number {
  process.stderr.write(`corral serve: ${message}\n`);
  return 1;
}

export async function runServe(
  args: string[],
  settings: Settings,
  out: (text: string) => void,
  config?: LoadedConfig,
): Promise<number> {
  const { values } = parseCommandArgs(COMMAND_SPECS.serve, args);
  const port = listenPort(values.port);
  const staticDir = rendererDir();
  if (!staticDir)
    return fail('the UI is not built: run `npm run build` first (out/renderer/index.html is missing)');
  const running = startCliService('serve', settings, config);
  // Loopback only, like the UI: /metrics passes the same Host and Origin checks and needs no token.
  // prom-client is loaded only for --metrics: a plain serve does not carry its registry.
  const exposed = values.metrics
    ? (await import('../../metrics/expose-metrics')).exposeMetrics(running, null)
    : null;
  const service = exposed ? countingTeardowns(running.service, exposed.metrics) : running.service;
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer(service, { port, staticDir, metrics: exposed?.handler });
  } catch (err) {
    exposed?.stop();
    await running.stop();
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      return fail(`port ${port} on 127.0.0.1 is already in use; choose another with --port N`);
    if (code === 'EACCES')
      return fail(`not allowed to listen on port ${port} (EACCES); choose another with --port N`);
    return fail(`could not listen on 127.0.0.1:${port}: ${err instanceof Error ? err.message : String(err)}`);
  }
  out(`Corral is serving on ${server.url}`);
  if (exposed) out(`Prometheus metrics on ${new URL('/metrics', server.url).href}`);
  await untilSignalled('serve');
  await server.close();
  exposed?.stop();
  await running.stop();
  return 0;
}
