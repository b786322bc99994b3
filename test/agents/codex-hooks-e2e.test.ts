import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { CODEX_VERSION, codexSkipReason, runCodex } from '../support/codex-cli';
import { startFakeResponsesApi, type FakeResponsesApi } from '../support/fake-responses-api';
import { trackGroupsOfRun } from '../support/claude-code';
import { removeDir } from '../support/spawned-groups';
import { describeUnless } from '../support/skip';

// The hooks run this checkout's built CLI (npm run build; npm test builds first).
const BUILT_CLI = fileURLToPath(new URL('../../out/main/corral.js', import.meta.url));

const skip =
  codexSkipReason() ??
  (existsSync(BUILT_CLI) ? undefined : `the built CLI ${BUILT_CLI} is missing (run npm run build)`);
if (!skip) console.info(`[agent] Codex CLI ${CODEX_VERSION}`);

const dirs: string[] = [];
let api: FakeResponsesApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
  for (const d of dirs.splice(0)) removeDir(d);
});

describeUnless(skip)(
  `Codex CLI ${CODEX_VERSION} with Corral hooks (real CLI, fake Responses API)`,
  { timeout: 180_000 },
  () => {
    it("the PostToolUse note names the call's leftover in the model's next request", async () => {
      const data = mkdtempSync(join(tmpdir(), 'corral-codex-data-'));
      const cwd = mkdtempSync(join(tmpdir(), 'corral-codex-cwd-'));
      dirs.push(data, cwd);
      // Codex ends a call by killing its process group: only what leaves the group outlives it.
      api = await startFakeResponsesApi({
        command: 'setsid tail -f /dev/null >/dev/null 2>&1 < /dev/null & echo "leftover pid $!"',
      });
      let home = '';
      const run = await runCodex({
        prompt: 'Start the reader.',
        baseUrl: api.baseUrl,
        cwd,
        env: { CORRAL_DATA_DIR: data },
        // Hooks Corral writes are not "managed": Codex runs them only once trusted in its /hooks view, or
        // with this flag for one run (0.171).
        args: ['--dangerously-bypass-hook-trust'],
        beforeRun: (env) => {
          home = env.HOME!;
          execFileSync(process.execPath, [BUILT_CLI, 'hooks', 'install', '--agent', 'codex'], { env });
        },
      });
      dirs.push(run.home);
      trackGroupsOfRun(home);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain('hook: PostToolUse Completed');
      // PostToolUse alone: the call's start comes from Codex's transcript (main/hooks/tool-duration.ts).
      const installed = JSON.parse(readFileSync(join(home, '.codex', 'hooks.json'), 'utf8')) as {
        hooks: Record<string, unknown>;
      };
      expect(Object.keys(installed.hooks)).toEqual(['PostToolUse', 'SessionEnd']);
      expect(run.stderr).not.toContain('hook: PreToolUse');
      const last = JSON.stringify(api.requests.at(-1)?.body);
      const pid = /leftover pid (\d+)/.exec(last)?.[1];
      expect(pid, last.slice(-2000)).toBeDefined();
      expect(last).toContain('Corral: this command left 1 process running');
      expect(last).toContain(`- pid ${pid} (process group `);
      expect(last).toMatch(/corral kill \d+:\d+:\d+/);
      expect(readFileSync(join(data, 'hooks', 'ended-sessions.jsonl'), 'utf8')).toContain('"agent":"codex"');
      expect(existsSync(join(data, 'hooks', 'hook-errors.log'))).toBe(false);
    });
  },
);
