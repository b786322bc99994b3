import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import type { TeardownResult } from '../../shared/model';
import {
  startFakeChatCompletionsApi,
  type FakeChatCompletionsApi,
} from '../support/fake-chat-completions-api';
import { makeAgentHome, nodeCliSkipReason, QWEN_CODE, runNodeCli } from '../support/node-agent-clis';
import { groupMembers } from '../support/proc';
import { runCli } from '../support/run-cli';
import { removeDir } from '../support/spawned-groups';
import { trackGroupsOfRun } from '../support/claude-code';
import { accepts, CLI_ENV, freePort, gitWorkTree, psGroups, waitListening } from '../provenance/live-support';
import { describeUnless } from '../support/skip';
import { installedClientCommand } from '../support/hook-client-run';
import { startServiceHooks, type RunningServiceHooks } from '../../main/hooks/service-hooks';

// The hooks run this checkout's built CLI (npm run build; npm test builds first).
const BUILT_CLI = fileURLToPath(new URL('../../out/main/corral.js', import.meta.url));

const skip = nodeCliSkipReason(QWEN_CODE);
if (!skip) console.info(`[agent] Qwen Code ${QWEN_CODE.version} (${process.execPath} ${process.version})`);

const dirs: string[] = [];
let api: FakeChatCompletionsApi | undefined;
let service: RunningServiceHooks | null = null;
afterEach(async () => {
  await api?.close();
  api = undefined;
  await service?.close();
  service = null;
  for (const d of dirs.splice(0)) removeDir(d);
});

/**
 * One headless Qwen Code turn (`qwen --approval-mode yolo --auth-type openai`, as root, no sandbox)
 * against the fake Chat Completions API, whose model asks for one `run_shell_command`.
 */
async function runQwen(options: {
  command: string;
  description: string;
  cwd: string;
  home: string;
  env?: Record<string, string>;
}) {
  api = await startFakeChatCompletionsApi({
    toolName: 'run_shell_command',
    args: { command: options.command, description: options.description, is_background: false },
  });
  const run = await runNodeCli(
    QWEN_CODE,
    ['--approval-mode', 'yolo', '--auth-type', 'openai', '-m', 'fake-model', 'Do what is asked.'],
    {
      cwd: options.cwd,
      env: {
        HOME: options.home,
        OPENAI_API_KEY: 'sk-fake-key-for-tests',
        OPENAI_BASE_URL: api.baseUrl,
        OPENAI_MODEL: 'fake-model',
        QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
        SHELL: '/bin/bash',
        LANG: 'C.UTF-8',
        TERM: 'dumb',
        CORRAL_TEST_FIXTURE: '1',
        ...options.env,
      },
    },
  );
  trackGroupsOfRun(options.home);
  expect(run.code, run.stderr).toBe(0);
  const after = api.afterCall();
  expect(after, 'the call result reached the model').toBeDefined();
  return { run, api, after: after! };
}

describeUnless(skip)(
  `Qwen Code ${QWEN_CODE.version} (real CLI, fake Chat Completions API)`,
  { timeout: 180_000 },
  () => {
    it("a leftover server and the call shell's own loop: flagged, the session, the tool call from QWEN_CODE_PROJECT_DIR, stopped", async () => {
      const { root, sub } = gitWorkTree();
      dirs.push(root);
      const home = makeAgentHome('corral-qwen-home-');
      dirs.push(home);
      const port = await freePort();
      const command = `python3 -m http.server ${port} --bind 127.0.0.1 >/dev/null 2>&1 & mkfifo .idle; until false; do read -t 1 <> .idle; done &`;
      const { api: fake } = await runQwen({ command, description: 'Start the dev server', cwd: sub, home });
      await waitListening(port);
      const [g] = await psGroups(['--port', String(port)]);
      expect(g).toBeDefined();
      const members = groupMembers(g!.pgid);
      expect(members.length).toBe(2);
      const environ = readFileSync(`/proc/${members[0]!.pid}/environ`, 'latin1').split('\0');
      const sessionId = environ.find((e) => e.startsWith('QWEN_CODE_SESSION_ID='))!.split('=')[1]!;
      const projectDir = environ.find((e) => e.startsWith('QWEN_CODE_PROJECT_DIR='))!.split('=')[1]!;
      expect(existsSync(join(projectDir, 'chats', `${sessionId}.jsonl`))).toBe(true);

      expect(g!.agent?.name).toBe('qwen-code');
      expect(g!.flags).toContain('orphan');
      expect(g!.session).toMatchObject({ id: sessionId, source: 'env', project: root });
      expect(g!.toolCall).toMatchObject({ id: fake.callId, command, description: 'Start the dev server' });

      const kill = await runCli(['kill', '--session', sessionId, '--json', '--grace-ms', '2000'], {
        env: CLI_ENV,
      });
      expect(kill.code, kill.stderr).toBe(0);
      const out = JSON.parse(kill.stdout) as { results: TeardownResult[] };
      expect(out.results.map((r) => r.pgid)).toEqual([g!.pgid]);
      expect(groupMembers(g!.pgid)).toEqual([]);
      expect(await accepts(port)).toBe(false);
    });

    it.skipIf(!existsSync(BUILT_CLI)).each(['no Corral running', 'a Corral service running'] as const)(
      "with Corral's hooks installed and %s, the model's next request names the leftover",
      async (corral) => {
        const home = makeAgentHome('corral-qwen-home-');
        dirs.push(home);
        const data = makeAgentHome('corral-qwen-data-');
        dirs.push(data);
        const cwd = makeAgentHome('corral-qwen-cwd-');
        dirs.push(cwd);
        const env = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: home, CORRAL_DATA_DIR: data };
        execFileSync(process.execPath, [BUILT_CLI, 'hooks', 'install', '--agent', 'qwen-code'], { env });
        // Its PostToolUse carries duration_ms: no PreToolUse hook. The hook runs the client (C where a
        // compiler is, else perl), which asks a running Corral and else runs the one-shot hook.
        const settings = JSON.parse(readFileSync(join(home, '.qwen', 'settings.json'), 'utf8')) as {
          hooks: Record<string, { hooks: { command: string }[] }[]>;
        };
        expect(Object.keys(settings.hooks).sort()).toEqual(['PostToolUse', 'SessionEnd']);
        expect(settings.hooks.PostToolUse![0]!.hooks[0]!.command).toBe(
          `${installedClientCommand(data)} hook qwen-code PostToolUse`,
        );
        if (corral === 'a Corral service running') {
          service = await startServiceHooks(data, (step, err) => {
            throw new Error(`${step}: ${String(err)}`);
          });
        }
        // The pid goes to a file too: Qwen's tool result once came back with no output at all (CI).
        const pidFile = join(cwd, 'leftover.pid');
        const { after } = await runQwen({
          command: `tail -f /dev/null & echo $! > ${pidFile}; echo "leftover pid $!"`,
          description: 'Start a background reader',
          cwd,
          home,
          env: { CORRAL_DATA_DIR: data },
        });
        const pid = readFileSync(pidFile, 'utf8').trim();
        expect(pid, after.result).toMatch(/^\d+$/);
        const next = JSON.stringify(after.request);
        expect(next).toContain('Corral: this command left 1 process running');
        expect(next).toContain(`- pid ${pid} (process group `);
        expect(next).toMatch(/corral kill \d+:\d+:\d+/);
        expect(existsSync(join(data, 'hooks', 'hook-errors.log'))).toBe(false);
        // The service answered PostToolUse (and SessionEnd) on its socket.
        if (service) expect(service.stats.answered).toBeGreaterThanOrEqual(1);
      },
    );
  },
);
