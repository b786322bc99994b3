import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { HOOK_AGENT_SPECS } from '../../main/core/hooks-setup/hook-agents';
import { installHooks } from '../../main/core/hooks-setup/hooks-setup';
import { installedClientCommand } from '../support/hook-client-run';
import { mergeHooks } from '../../main/core/hooks-setup/settings-merge';
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

const reason = claudeWithBuiltCliSkipReason();

const dirs: string[] = [];
const cleanups: (() => Promise<void>)[] = [];
let api: FakeMessagesApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
  for (const c of cleanups.splice(0)) await c();
  for (const d of dirs.splice(0)) removeDir(d);
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

/**
 * The hooks of a turn: none; the one-shot command hooks on every event (what Corral installed before
 * its Claude Code hooks ran the client, and what runs with no Corral service); or what `corral hooks
 * install` writes by default (the perl client on PostToolUse, PostToolUseFailure, SessionEnd and Stop,
 * no PreToolUse), with no service (the client falls back to the one-shot hook) or the service answering
 * on its socket (Linux). `corral hooks install --http`: claude-code-http-e2e.test.ts.
 */
type Hooks = 'none' | 'one-shot' | 'installed' | 'installed, service running';

/**
 * One real `claude -p` turn against the fake API: the model asks for a Bash call that leaves
 * `tail -f /dev/null` running and prints its pid; returns that pid and what the model saw afterwards.
 */
async function oneTurn(hooks: Hooks): Promise<{ leftoverPid: number; nextRequest: string; data: string }> {
  api = await startFakeMessagesApi({
    // Not `sleep 600 &`: Claude Code 2.1.332 refuses a Bash command that starts with a long sleep.
    command: 'tail -f /dev/null & echo "leftover pid $!"',
    description: 'Start a background sleeper',
  });
  const { home } = makeClaudeHome();
  dirs.push(home);
  const data = tempDir('corral-e2e-data-');
  // The built hook entry, which loads no config nor native code.
  const hookEntry = `${shellQuote(process.execPath)} ${shellQuote(join(BUILT_CLI, '..', 'corral-hook.js'))}`;
  const path = join(home, '.claude', 'settings.json');
  if (hooks === 'one-shot') {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(
      path,
      mergeHooks('', HOOK_AGENT_SPECS['claude-code'], (e) => `${hookEntry} hook claude-code ${e}`, path),
    );
  } else if (hooks !== 'none') {
    // PATH as the user's: where it finds a C compiler, install builds the C client (else perl).
    const env = { HOME: home, CORRAL_DATA_DIR: data, PATH: process.env.PATH ?? '' };
    expect(installHooks('claude-code', { env, home }, hookEntry, false).error).toBeUndefined();
    const written = JSON.parse(readFileSync(path, 'utf8')) as {
      hooks: Record<string, { hooks: { command: string }[] }[]>;
    };
    expect(written.hooks.PostToolUse![0]!.hooks[0]!.command).toBe(
      `${installedClientCommand(data)} hook claude-code PostToolUse`,
    );
    expect(Object.keys(written.hooks).sort()).toEqual([
      'PostToolUse',
      'PostToolUseFailure',
      'SessionEnd',
      'Stop',
    ]);
  }
  const running =
    hooks === 'installed, service running'
      ? (await startServiceHooks(data, (step, err) => {
          throw new Error(`${step}: ${String(err)}`);
        }))!
      : null;
  if (running) cleanups.push(() => running.close());
  const run = await runClaude({
    prompt: 'Start the sleeper.',
    baseUrl: api.baseUrl,
    cwd: tempDir('corral-e2e-cwd-'),
    home,
    env: { CORRAL_DATA_DIR: data },
  });
  trackGroupsOfRun(home);
  expect(run.code, run.stderr).toBe(0);
  // The service answered the hooks on its socket (PostToolUse, Stop, SessionEnd), no one-shot hook.
  if (running) expect(running.stats.answered).toBeGreaterThanOrEqual(3);
  const result = api.toolResultText();
  const m = /leftover pid (\d+)/.exec(result ?? '');
  expect(m, `tool result: ${result}`).not.toBeNull();
  // The messaging token the leftover inherited is a secret: nothing Corral wrote holds it.
  const token = readFileSync(`/proc/${m![1]}/environ`, 'latin1')
    .split('\0')
    .find((e) => e.startsWith('CLAUDE_CODE_MESSAGING_TOKEN='))
    ?.slice('CLAUDE_CODE_MESSAGING_TOKEN='.length);
  expect(token?.length).toBeGreaterThan(8);
  for (const file of filesUnder(data)) expect(readFileSync(file, 'latin1')).not.toContain(token);
  const conversation = api.conversationRequests();
  // The request after the tool call: the one that carries its tool_result.
  const next = conversation.find((r) => JSON.stringify(r.body).includes(api!.toolUseId + '"'));
  const after = conversation[conversation.length - 1]!;
  expect(next).toBe(after);
  return { leftoverPid: Number(m![1]), nextRequest: JSON.stringify(after.body), data };
}

describeUnless(reason)(
  `Claude Code ${CLAUDE_CODE_VERSION} with Corral hooks (real CLI, fake API)`,
  { timeout: 180_000 },
  () => {
    it.each([
      'one-shot',
      'installed',
      ...(process.platform === 'linux' ? (['installed, service running'] as const) : []),
    ] as const)(
      "with Corral's hooks (%s), the model's next request names the leftover's pid and how to stop it",
      async (hooks) => {
        const { leftoverPid, nextRequest, data } = await oneTurn(hooks);
        expect(nextRequest).toContain('Corral: this command left 1 process running');
        expect(nextRequest).toContain(`- pid ${leftoverPid} (process group `);
        expect(nextRequest).not.toMatch(/kill -TERM/);
        expect(nextRequest).toMatch(/corral kill \d+:\d+:\d+/);
        // The session ended with the run: recorded for the session-ended flag.
        const ended = readFileSync(join(data, 'hooks', 'ended-sessions.jsonl'), 'utf8');
        expect(ended).toContain('"agent":"claude-code"');
        expect(existsSync(join(data, 'hooks', 'hook-errors.log'))).toBe(false);
      },
    );

    it('without the hooks, the model is told nothing about the leftover', async () => {
      const { leftoverPid, nextRequest } = await oneTurn('none');
      expect(nextRequest).not.toContain('Corral');
      expect(nextRequest).not.toContain(`pid ${leftoverPid} (process group`);
    });
  },
);
