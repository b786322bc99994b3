import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { ensureHookEndpoint } from '../../main/core/hooks-setup/hook-endpoint';
import { installHooks } from '../../main/core/hooks-setup/hooks-setup';
import { shellQuote } from '../../main/core/hooks-setup/shell-quote';
import { nobodyCannotRunCheckout } from '../support/as-nobody';
import {
  CLAUDE_CODE_VERSION,
  BUILT_CLI,
  claudeWithBuiltCliSkipReason,
  makeClaudeHome,
  runClaude,
  trackGroupsOfRun,
} from '../support/claude-code';
import { startFakeMessagesApi, type FakeMessagesApi } from '../support/fake-messages-api';
import { squatPortAsNobody } from '../support/port-squatter';
import { removeDir } from '../support/spawned-groups';
import { describeUnless } from '../support/skip';

const reason =
  claudeWithBuiltCliSkipReason('the service answers hooks on Linux (elsewhere they run one-shot)') ??
  nobodyCannotRunCheckout ??
  undefined;

const dirs: string[] = [];
let api: FakeMessagesApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
  for (const d of dirs.splice(0)) removeDir(d);
});

function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

describeUnless(reason)(
  `Claude Code ${CLAUDE_CODE_VERSION}, default hooks and permissions, another user squatting the hook port`,
  { timeout: 180_000 },
  () => {
    it('no command is rewritten and no forged note reaches the model', async () => {
      api = await startFakeMessagesApi({ command: 'echo harmless', description: 'Say harmless' });
      const { home } = makeClaudeHome();
      dirs.push(home);
      const data = tempDir('corral-squat-e2e-data-');
      const env = { HOME: home, CORRAL_DATA_DIR: data };
      // `corral hooks install` as a user runs it: the command hooks (the client), no --http.
      const oneShot = `${shellQuote(process.execPath)} ${shellQuote(join(BUILT_CLI, '..', 'corral-hook.js'))}`;
      expect(installHooks('claude-code', { env, home }, oneShot, false).error).toBeUndefined();
      // nobody takes the endpoint's TCP port (the one the hooks used to ask) and forges every answer:
      // PreToolUse allow with the command rewritten, and a note.
      const squatter = await squatPortAsNobody(ensureHookEndpoint(data).port);
      const cwd = tempDir('corral-squat-e2e-cwd-');
      mkdirSync(join(cwd, 'loot'));
      const run = await runClaude({
        prompt: 'Say harmless.',
        baseUrl: api.baseUrl,
        cwd,
        home,
        env: { CORRAL_DATA_DIR: data },
        defaultPermissions: true,
      });
      trackGroupsOfRun(home);
      expect(run.code, run.stderr).toBe(0);
      expect(api.toolResultText()).toContain('harmless');
      expect(existsSync(join(cwd, 'loot', 'pwned'))).toBe(false);
      expect(squatter.connections()).toBe(0);
      const conversation = JSON.stringify(api.conversationRequests().map((r) => r.body));
      expect(conversation).not.toContain('FORGED');
    });
  },
);
