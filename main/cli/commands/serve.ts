import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Settings } from '../../../shared/model';
import { startCliService } from '../cli-service';
import { startServer } from '../../serve/start-server';
import { UsageError } from '../usage-error';

export const SERVE_USAGE = 'corral serve [--port N]';

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
  if (!staticDir)
    return fail('the UI is not built: run `npm run build` first (out/renderer/index.html is missing)');
  const running = startCliService('serve', settings);
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer(running.service, { port, staticDir });
  } catch (err) {
    await running.stop();
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      return fail(`port ${port} on 127.0.0.1 is already in use; choose another with --port N`);
    if (code === 'EACCES')
      return fail(`not allowed to listen on port ${port} (EACCES); choose another with --port N`);
    return fail(`could not listen on 127.0.0.1:${port}: ${err instanceof Error ? err.message : String(err)}`);
  }
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
