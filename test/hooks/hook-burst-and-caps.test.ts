import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { perlProgram } from '../../main/core/hooks-setup/hook-client-script';
import { hookSocketPath } from '../../main/core/hooks-setup/hook-socket-path';
import { installHooks } from '../../main/core/hooks-setup/hooks-setup';
import { ensureHookEndpoint } from '../../main/core/hooks-setup/hook-endpoint';
import { MAX_CONNECTIONS } from '../../main/hooks/hook-request-handler';
import { startServiceHooks } from '../../main/hooks/service-hooks';
import { AS_NOBODY, nobodyCannotRunCheckout } from '../support/as-nobody';
import { codexPayload, setUpHookClient, hookClientSkipReason } from '../support/hook-client-run';
import { cleanEnv, removeDir, spawnGroup, trackGroup } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';
import { describeUnless } from '../support/skip';

const TSX = fileURLToPath(new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url));
const SERVICE_CHILD = fileURLToPath(new URL('../../bench/hook-server-child.ts', import.meta.url));
const reason = hookClientSkipReason;

const dirs: string[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  for (const d of dirs.splice(0)) removeDir(d);
});

/** The service's hook listeners alone in a process of their own (as `corral watch` runs them), until its socket answers. */
async function serviceProcess(data: string): Promise<void> {
  const child = spawn(process.execPath, [TSX, SERVICE_CHILD, data], {
    env: cleanEnv(),
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  trackGroup(child.pid!);
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  await waitFor('the hook service to listen', () => out.includes('ready'), { timeoutMs: 30_000 });
}

function openFds(): number {
  return readdirSync('/proc/self/fd').length;
}

describeUnless(reason)('a burst of tool calls, and idle connections', { timeout: 60_000 }, () => {
  it('100 simultaneous hook calls with the service running: no one-shot fallback at all', async () => {
    const s = setUpHookClient();
    dirs.push(s.data);
    await serviceProcess(s.data);
    const payload = join(s.data, 'payload.json');
    writeFileSync(payload, codexPayload(randomUUID(), 'PostToolUse'));
    const outs = join(s.data, 'outs');
    // One shell starts all 100 at once, as an agent running parallel tool calls does.
    const burst = spawnGroup(
      `mkdir -p ${outs} && for i in $(seq 100); do ${perlProgram()} ${s.client} hook codex PostToolUse < ${payload} > ${outs}/$i 2>&1 & done; wait; echo done > "$DIR/done"`,
      { env: cleanEnv({ CORRAL_DATA_DIR: s.data }) },
    );
    await burst.ready('done', 30_000);
    const fallbacks = existsSync(s.fallbackPids)
      ? readFileSync(s.fallbackPids, 'utf8').trim().split('\n').length
      : 0;
    expect(fallbacks).toBe(0);
    expect(readdirSync(outs)).toHaveLength(100);
  });

  it.each(['the Unix socket', 'the http hooks port'] as const)(
    "2,000 idle connections to %s neither exhaust the service's descriptors nor stay open",
    async (kind) => {
      if (kind === 'the http hooks port' && (process.geteuid?.() !== 0 || nobodyCannotRunCheckout)) return;
      const s = setUpHookClient();
      dirs.push(s.data);
      const home = join(s.data, 'home');
      let target: string;
      if (kind === 'the http hooks port') {
        const change = installHooks(
          'claude-code',
          { env: { HOME: home, CORRAL_DATA_DIR: s.data }, home },
          'corral',
          false,
          true,
        );
        expect(change.error).toBeUndefined();
        target = String(ensureHookEndpoint(s.data).port);
      } else target = JSON.stringify(hookSocketPath(s.data));
      const running = await startServiceHooks(
        s.data,
        (step, err) => {
          throw new Error(`${step}: ${String(err)}`);
        },
        undefined,
        { env: { CORRAL_DATA_DIR: s.data }, home },
      );
      cleanups.push(() => running!.close());
      if (kind === 'the http hooks port') {
        expect(running!.port).not.toBeNull();
        await waitFor('the http hooks port to listen', () => running!.portListening());
      }
      const before = openFds();
      // The attacker: 2,000 connections that send nothing, counting those the service closes.
      const script = `
const net = require('net'), fs = require('fs');
let open = 0, closed = 0;
for (let i = 0; i < 2000; i++) {
  const c = net.connect(${target});
  c.on('connect', () => open++);
  c.on('error', () => {});
  c.on('close', () => closed++);
}
setInterval(() => fs.writeFileSync(process.env.DIR + '/count.tmp', open + ' ' + closed + '\\n') || fs.renameSync(process.env.DIR + '/count.tmp', process.env.DIR + '/count'), 100);
`;
      const asWho = kind === 'the http hooks port' ? `${AS_NOBODY.join(' ')} ` : '';
      const attacker = spawnGroup(
        `chmod 777 "$DIR"; ulimit -n 4096; exec ${asWho}${process.execPath} -e "$SCRIPT"`,
        {
          env: cleanEnv({ SCRIPT: script }),
        },
      );
      let peak = 0;
      const counts = (): number[] => {
        peak = Math.max(peak, openFds() - before);
        try {
          return readFileSync(join(attacker.dir, 'count'), 'utf8').trim().split(' ').map(Number);
        } catch {
          return [0, 0];
        }
      };
      // Every connection ends closed by the service (over the cap at once; the rest idle past the timeout).
      await waitFor('the service to close every idle connection', () => counts()[1] === 2000, {
        timeoutMs: 20_000,
        intervalMs: 50,
        explain: () => `open/closed: ${counts().join('/')}`,
      });
      expect(peak).toBeLessThanOrEqual(MAX_CONNECTIONS + 16);
      expect(openFds() - before).toBeLessThanOrEqual(16);
    },
  );
});
