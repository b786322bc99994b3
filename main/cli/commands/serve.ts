import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Settings } from '../../../shared/model';
import type { LoadedConfig } from '../../core/config/load-config';
import { startCliService } from '../cli-service';
import { startServer } from '../../serve/start-server';
import { UsageError } from '../usage-error';

/** out/renderer, whether running from source (tsx) or from the built out/main/corral.js. */
function rendererDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const candidate of [
    join(here, '../renderer'),
    resolve(here, '../../../out/renderer'),
    resolve(here, '../../out/renderer'),
  ]) {
    if (existsSync(join(candidate, 'index.html'))) return candidate;
  }
  throw new Error('the UI is not built: run `npm run build` first (out/renderer/index.html is missing)');
}

export async function runServe(
  args: string[],
  settings: Settings,
  out: (text: string) => void,
  config?: LoadedConfig,
): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { port: { type: 'string', default: '7077' } },
    strict: true,
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port: expected 0..65535, got '${values.port}'`);
  const staticDir = rendererDir();
  const running = startCliService('serve', settings, config);
  const server = await startServer(running.service, { port, staticDir });
  out(`Corral is serving on ${server.url}`);
  await new Promise<void>((done) => {
    const stop = (): void => done();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await server.close();
  await running.stop();
  return 0;
}
