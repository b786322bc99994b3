import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { ensureHookEndpoint } from '../../main/core/hooks-setup/hook-endpoint';
import { hookSocketPath } from '../../main/core/hooks-setup/hook-socket-path';
import { perlProgram } from '../../main/core/hooks-setup/hook-client-script';
import { startServiceHooks } from '../../main/hooks/service-hooks';
import { AS_NOBODY, nobodyCannotRunCheckout } from '../support/as-nobody';
import {
  codexPayload,
  runHookClient,
  setUpHookClient,
  hookClientSkipReason,
  CLIENT_KINDS,
  clientKindSkipReason,
} from '../support/hook-client-run';
import { squatPortAsNobody } from '../support/port-squatter';
import { cleanEnv, removeDir } from '../support/spawned-groups';
import { toolCallLeavingTail } from '../support/tool-call-leftover';
import { describeUnless } from '../support/skip';

const reason = hookClientSkipReason ?? nobodyCannotRunCheckout ?? undefined;

const dirs: string[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  for (const d of dirs.splice(0)) removeDir(d);
});

/** Runs a perl one-liner as nobody; its exit status. */
function asNobody(perl: string, ...args: string[]): { status: number | null; stderr: string } {
  const r = spawnSync(AS_NOBODY[0]!, [...AS_NOBODY.slice(1), perlProgram()!, '-e', perl, ...args], {
    env: cleanEnv(),
    encoding: 'utf8',
  });
  return { status: r.status, stderr: r.stderr };
}

describeUnless(reason)('the hook channel, against another local user (nobody)', () => {
  it('nobody can neither connect to the hook socket nor remove or replace it', async () => {
    const s = setUpHookClient();
    dirs.push(s.data);
    const running = await startServiceHooks(s.data, (step, err) => {
      throw new Error(`${step}: ${String(err)}`);
    });
    cleanups.push(() => running!.close());
    const path = hookSocketPath(s.data);
    const connect = asNobody(
      `socket(my $s,1,1,0) or die; connect($s, pack('S Z*',1,$ARGV[0])) or do { print STDERR "$!"; exit 3 }; exit 0`,
      path,
    );
    expect(connect).toMatchObject({ status: 3, stderr: 'Permission denied' });
    const unlink = asNobody(`unlink($ARGV[0]) or exit 3; exit 0`, path);
    expect(unlink.status).toBe(3);
    const replace = asNobody(
      `socket(my $s,1,1,0) or die; rename($ARGV[0], "$ARGV[0].x") and exit 0; bind($s, pack('S Z*',1,"$ARGV[0].2")) and exit 0; exit 3`,
      path,
    );
    expect(replace.status).toBe(3);
    expect(statSync(path).isSocket()).toBe(true);
    expect(running!.stats).toMatchObject({ answered: 0, refused: 0 });
  });

  for (const client of CLIENT_KINDS)
    describeUnless(clientKindSkipReason(client))(`the ${client} client`, () => {
      it.each(['no Corral running', 'a Corral running'] as const)(
        "nobody squatting the endpoint's TCP port with %s receives nothing, and its forged answer is never printed",
        async (corral) => {
          const s = setUpHookClient(client);
          dirs.push(s.data);
          const { port, token } = ensureHookEndpoint(s.data);
          const squatter = await squatPortAsNobody(port);
          let running: Awaited<ReturnType<typeof startServiceHooks>> = null;
          if (corral === 'a Corral running') {
            // Without http hooks installed the service does not even try the TCP port.
            running = await startServiceHooks(s.data, (step, err) => {
              throw new Error(`${step}: ${String(err)}`);
            });
            cleanups.push(() => running!.close());
          }
          const session = randomUUID();
          const markers = { CODEX_THREAD_ID: session, CODEX_CI: '1' };
          const payload = (event: string): string =>
            codexPayload(session, event).replace('}', ',"tool_response":"SECRET-OUTPUT"}');
          const pre = await runHookClient(s, 'codex', 'PreToolUse', payload('PreToolUse'), markers);
          const { leftover } = await toolCallLeavingTail(markers);
          const post = await runHookClient(s, 'codex', 'PostToolUse', payload('PostToolUse'), markers);
          expect([pre.code, post.code]).toEqual([0, 0]);
          expect(squatter.connections()).toBe(0);
          expect(squatter.received()).not.toContain(token);
          expect(squatter.received()).not.toContain('SECRET-OUTPUT');
          expect(squatter.received()).toBe('');
          for (const out of [pre.out, post.out]) {
            expect(out).not.toContain('permissionDecision');
            expect(out).not.toContain('FORGED');
          }
          expect(pre.out).toBe('');
          // Corral's own note still came, from the service or from the one-shot hook.
          expect(post.out).toContain(`- pid ${leftover} (process group `);
          if (running) expect(running.stats.answered).toBe(2);
          else expect(readFileSync(s.fallbackPids, 'utf8').trim().split('\n')).toHaveLength(2);
        },
      );
    });
});
