import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { HOOK_AGENT_SPECS } from '../../main/core/hooks-setup/hook-agents';
import { ensureHookEndpoint, HOOK_TOKEN_HEADER } from '../../main/core/hooks-setup/hook-endpoint';
import { mergeHooks } from '../../main/core/hooks-setup/settings-merge';
import { startServiceHooks } from '../../main/hooks/service-hooks';
import { nobodyCannotRunCheckout } from '../support/as-nobody';
import { squatPortAsNobody } from '../support/port-squatter';
import { removeDir } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';
import { describeUnless } from '../support/skip';

const reason =
  process.platform !== 'linux'
    ? 'the service answers hooks on Linux only'
    : (nobodyCannotRunCheckout ?? undefined);

const dirs: string[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  for (const d of dirs.splice(0)) removeDir(d);
});

describeUnless(reason)('the http hooks port squatted as the service starts', { timeout: 60_000 }, () => {
  it('says who holds it, keeps trying, and takes it once it is free', async () => {
    const data = mkdtempSync(join(tmpdir(), 'corral-squat-start-'));
    dirs.push(data);
    const home = join(data, 'home');
    // http hooks installed before they were refused on such a port: their settings post to the endpoint's.
    const { port, token } = ensureHookEndpoint(data);
    const settings = join(home, '.claude', 'settings.json');
    mkdirSync(join(home, '.claude'), { recursive: true });
    writeFileSync(
      settings,
      mergeHooks(
        '',
        HOOK_AGENT_SPECS['claude-code'],
        (e) => ({
          type: 'http',
          url: `http://127.0.0.1:${port}/hook/claude-code/${e}`,
          headers: { [HOOK_TOKEN_HEADER]: token },
          timeout: 2,
        }),
        settings,
      ),
    );
    const squatter = await squatPortAsNobody(port);
    const said: string[] = [];
    const running = await startServiceHooks(
      data,
      (step, err) => said.push(`${step}: ${String(err)}`),
      undefined,
      {
        env: {},
        home,
      },
    );
    cleanups.push(() => running!.close());
    expect(running!.port).toBe(port);
    await waitFor('the service to say who holds the port', () => said.length > 0);
    expect(said[0]).toContain(`port ${port} is held by another user (uid 65534)`);
    expect(running!.portListening()).toBe(false);
    squatter.stop();
    await waitFor('the service to take the port once it is free', () => running!.portListening(), {
      timeoutMs: 20_000,
    });
    const res = await fetch(`http://127.0.0.1:${port}/hook/stats`, {
      headers: { [HOOK_TOKEN_HEADER]: token },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-corral-hook')).toBe('1');
  });
});
