import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { installHooks } from '../../main/core/hooks-setup/hooks-setup';
import { shellQuote } from '../../main/core/hooks-setup/shell-quote';
import { startServiceHooks } from '../../main/hooks/service-hooks';
import {
  CLAUDE_CODE_VERSION,
  BUILT_CLI,
  claudeWithBuiltCliSkipReason,
  makeClaudeHome,
  runClaude,
  trackGroupsOfRun,
} from '../support/claude-code';
import { startFakeMessagesApi, type FakeMessagesApi } from '../support/fake-messages-api';
import { removeDir } from '../support/spawned-groups';
import { describeUnless } from '../support/skip';

// The real Claude Code with the hooks `corral hooks install` writes by default: the perl client on
// PostToolUse, PostToolUseFailure, SessionEnd and Stop, no PreToolUse. The leftover's note reaches the
// model whether the running Corral answers on its socket or the client falls back to the one-shot hook.

const reason = claudeWithBuiltCliSkipReason(
  'the service answers hooks on Linux (elsewhere they run one-shot)',
);

const dirs: string[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
let api: FakeMessagesApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
  for (const c of cleanups.splice(0).reverse()) await c();
  for (const d of dirs.splice(0)) removeDir(d);
});

function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

async function oneTurn(
  withService: boolean,
): Promise<{ leftoverPid: number; nextRequest: string; data: string }> {
  api = await startFakeMessagesApi({
    command: 'tail -f /dev/null & echo "leftover pid $!"',
    description: 'Start a background reader',
  });
  const { home } = makeClaudeHome();
  dirs.push(home);
  const data = tempDir('corral-client-e2e-data-');
  const env = { HOME: home, CORRAL_DATA_DIR: data };
  const oneShot = `${shellQuote(process.execPath)} ${shellQuote(join(BUILT_CLI, '..', 'corral-hook.js'))}`;
  expect(installHooks('claude-code', { env, home }, oneShot, false).error).toBeUndefined();
  const settings = JSON.parse(readFileSync(join(home, '.claude', 'settings.json'), 'utf8')) as {
    hooks: Record<string, unknown>;
  };
  expect(Object.keys(settings.hooks).sort()).toEqual([
    'PostToolUse',
    'PostToolUseFailure',
    'SessionEnd',
    'Stop',
  ]);
  const answered = { count: () => 0 };
  if (withService) {
    const running = (await startServiceHooks(data, (step, err) => {
      throw new Error(`${step}: ${String(err)}`);
    }))!;
    cleanups.push(() => running.close());
    answered.count = () => running.stats.answered;
  }
  const run = await runClaude({
    prompt: 'Start the reader.',
    baseUrl: api.baseUrl,
    cwd: tempDir('corral-client-e2e-cwd-'),
    home,
    env: { CORRAL_DATA_DIR: data },
  });
  trackGroupsOfRun(home);
  expect(run.code, run.stderr).toBe(0);
  const m = /leftover pid (\d+)/.exec(api.toolResultText() ?? '');
  expect(m).not.toBeNull();
  const conversation = api.conversationRequests();
  const after = conversation[conversation.length - 1]!;
  // The service answered the PostToolUse, the Stop and the SessionEnd; with none, the one-shot hook did.
  if (withService) expect(answered.count()).toBeGreaterThanOrEqual(1);
  return { leftoverPid: Number(m![1]), nextRequest: JSON.stringify(after.body), data };
}

describeUnless(reason)(
  `Claude Code ${CLAUDE_CODE_VERSION} with the hooks hooks install writes (client, no PreToolUse)`,
  { timeout: 180_000 },
  () => {
    it.each([
      ['the running service answering on its socket', true],
      ['no service: the one-shot fallback', false],
    ] as const)("%s: the model's next request names the leftover", async (_name, withService) => {
      const { leftoverPid, nextRequest, data } = await oneTurn(withService);
      expect(nextRequest).toContain('Corral: this command left 1 process running');
      expect(nextRequest).toContain(`- pid ${leftoverPid} (process group `);
      expect(existsSync(join(data, 'hooks', 'hook-errors.log'))).toBe(false);
    });
  },
);
