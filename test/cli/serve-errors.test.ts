import { cpSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/run-cli';
import { removeDir } from '../support/spawned-groups';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSX = join(ROOT, 'node_modules/tsx/dist/cli.mjs');
const dirs: string[] = [];
const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((done) => s.close(done));
  for (const d of dirs.splice(0)) removeDir(d);
});

/** A checkout of the sources with no build in it (and, when asked, a built UI). */
function checkout({ built }: { built: boolean }): string {
  const dir = mkdtempSync(join(tmpdir(), 'corral-checkout-'));
  dirs.push(dir);
  for (const part of [
    'main',
    'shared',
    'package.json',
    'tsconfig.json',
    'tsconfig.base.json',
    'tsconfig.node.json',
  ])
    cpSync(join(ROOT, part), join(dir, part), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  if (built) {
    mkdirSync(join(dir, 'out/renderer'), { recursive: true });
    writeFileSync(join(dir, 'out/renderer/index.html'), '<!doctype html><title>Corral</title>');
  }
  return dir;
}

const serve = (dir: string, args: string[], env: Record<string, string> = {}) =>
  runCli(['serve', ...args], {
    command: [process.execPath, TSX, join(dir, 'main/cli/corral.ts')],
    env: { CORRAL_CONFIG: '/nonexistent', CORRAL_DATA_DIR: join(dir, 'data'), ...env },
    timeoutMs: 30_000,
  });

describe('corral serve when it cannot serve', () => {
  it('from a checkout without a build: one line saying to run npm run build, exit 1', async () => {
    const r = await serve(checkout({ built: false }), ['--port', '0']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'corral serve: the UI is not built: run `npm run build` first (out/renderer/index.html is missing)\n',
    );
  });

  it('on a port in use: one line, exit 1, and the process ends', async () => {
    const taken = createServer();
    servers.push(taken);
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
    const port = (taken.address() as { port: number }).port;
    const r = await serve(checkout({ built: true }), ['--port', String(port)]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `corral serve: port ${port} on 127.0.0.1 is already in use; choose another with --port N\n`,
    );
  });
});
