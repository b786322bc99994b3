import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import type { TeardownResult } from '../../shared/model';
import { startFakeGeminiApi, type FakeGeminiApi } from '../support/fake-gemini-api';
import { GEMINI_CLI, makeAgentHome, nodeCliSkipReason, runNodeCli } from '../support/node-agent-clis';
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

const skip = nodeCliSkipReason(GEMINI_CLI);
if (!skip) console.info(`[agent] Gemini CLI ${GEMINI_CLI.version} (${process.execPath} ${process.version})`);

const dirs: string[] = [];
let api: FakeGeminiApi | undefined;
let service: RunningServiceHooks | null = null;
afterEach(async () => {
  await api?.close();
  api = undefined;
  await service?.close();
  service = null;
  for (const d of dirs.splice(0)) removeDir(d);
});

function tempDir(prefix: string): string {
  const d = makeAgentHome(prefix);
  dirs.push(d);
  return d;
}

/**
 * One headless Gemini CLI turn (`gemini --approval-mode yolo -p …`, as root, no sandbox) against the
 * fake generateContent API (GOOGLE_GEMINI_BASE_URL), whose model asks for one `run_shell_command`. The
 * API-key auth is chosen in settings.json (the base URL alone selects the gateway auth, which headless
 * mode refuses), and the working directory is trusted (an untrusted folder turns yolo off).
 */
async function runGemini(options: {
  command: string;
  description: string;
  cwd: string;
  home: string;
  env?: Record<string, string>;
}) {
  api = await startFakeGeminiApi({
    toolName: 'run_shell_command',
    args: { command: options.command, description: options.description },
  });
  const gemini = join(options.home, '.gemini');
  mkdirSync(gemini, { recursive: true });
  const settingsPath = join(gemini, 'settings.json');
  const settings = existsSync(settingsPath)
    ? (JSON.parse(readFileSync(settingsPath, 'utf8')) as Record<string, unknown>)
    : {};
  writeFileSync(
    settingsPath,
    JSON.stringify({ ...settings, security: { auth: { selectedType: 'gemini-api-key' } } }),
  );
  writeFileSync(join(gemini, 'trustedFolders.json'), JSON.stringify({ [options.cwd]: 'TRUST_FOLDER' }));
  const run = await runNodeCli(
    GEMINI_CLI,
    ['--approval-mode', 'yolo', '-m', 'gemini-2.5-flash', '-p', 'Do what is asked.'],
    {
      cwd: options.cwd,
      env: {
        HOME: options.home,
        GEMINI_API_KEY: 'fake-key-for-tests',
        GOOGLE_GEMINI_BASE_URL: api.baseUrl,
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
  `Gemini CLI ${GEMINI_CLI.version} (real CLI, fake generateContent API)`,
  { timeout: 180_000 },
  () => {
    it("a leftover server and the call shell's own loop: flagged, attributed, the call's command, stopped", async () => {
      const { root, sub } = gitWorkTree();
      dirs.push(root);
      const home = tempDir('corral-gemini-home-');
      const port = await freePort();
      // Gemini CLI waits for the call's output to close: a background job must not hold it.
      const command = `python3 -m http.server ${port} --bind 127.0.0.1 >/dev/null 2>&1 & mkfifo .idle; until false; do read -t 1 <> .idle; done >/dev/null 2>&1 &`;
      await runGemini({ command, description: 'Start the dev server', cwd: sub, home });
      await waitListening(port);
      const [g] = await psGroups(['--port', String(port)]);
      expect(g).toBeDefined();
      expect(groupMembers(g!.pgid).length).toBe(2);
      expect(g!.agent?.name).toBe('gemini-cli');
      expect(g!.flags).toContain('orphan');
      // Gemini CLI gives its tool calls no session id or call id: the command is read from the wrapper.
      expect(g!.session).toBeNull();
      expect(g!.toolCall).toMatchObject({ id: null, command, description: null });

      const kill = await runCli(['kill', g!.id, '--json', '--grace-ms', '2000'], { env: CLI_ENV });
      expect(kill.code, kill.stderr).toBe(0);
      expect((JSON.parse(kill.stdout) as TeardownResult).pgid).toBe(g!.pgid);
      expect(groupMembers(g!.pgid)).toEqual([]);
      expect(await accepts(port)).toBe(false);
    });

    it.skipIf(!existsSync(BUILT_CLI)).each(['no Corral running', 'a Corral service running'] as const)(
      "with Corral's hooks installed and %s, the model's next request names the leftover",
      async (corral) => {
        const home = tempDir('corral-gemini-home-');
        const data = tempDir('corral-gemini-data-');
        const cwd = tempDir('corral-gemini-cwd-');
        const env = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: home, CORRAL_DATA_DIR: data };
        execFileSync(process.execPath, [BUILT_CLI, 'hooks', 'install', '--agent', 'gemini-cli'], { env });
        // The hooks run the client (C where a compiler is, else perl): a running Corral answers, else the
        // one-shot hook does.
        const settings = JSON.parse(readFileSync(join(home, '.gemini', 'settings.json'), 'utf8')) as {
          hooks: Record<string, { hooks: { command: string }[] }[]>;
        };
        expect(settings.hooks.AfterTool![0]!.hooks[0]!.command).toBe(
          `${installedClientCommand(data)} hook gemini-cli AfterTool`,
        );
        if (corral === 'a Corral service running') {
          service = await startServiceHooks(data, (step, err) => {
            throw new Error(`${step}: ${String(err)}`);
          });
        }
        const { after } = await runGemini({
          command: 'tail -f /dev/null >/dev/null 2>&1 & echo "leftover pid $!"',
          description: 'Start a background reader',
          cwd,
          home,
          env: { CORRAL_DATA_DIR: data },
        });
        const pid = /leftover pid (\d+)/.exec(after.result)?.[1];
        expect(pid, after.result).toBeDefined();
        const next = JSON.stringify(after.request);
        expect(next).toContain('Corral: this command left 1 process running');
        expect(next).toContain(`- pid ${pid} (process group `);
        expect(next).toMatch(/corral kill \d+:\d+:\d+/);
        expect(existsSync(join(data, 'hooks', 'hook-errors.log'))).toBe(false);
        // The service answered BeforeTool and AfterTool on its socket.
        if (service) expect(service.stats.answered).toBeGreaterThanOrEqual(2);
      },
    );

    it("a process its hook started carries GEMINI_SESSION_ID: it has the session's id", async () => {
      const home = tempDir('corral-gemini-home-');
      const cwd = tempDir('corral-gemini-cwd-');
      const marker = `${6000 + Math.floor(Math.random() * 3000)}`;
      // A user's hook that starts something and returns (its own session, output closed).
      const hook = `setsid sleep ${marker} </dev/null >/dev/null 2>&1 &`;
      const hooks = {
        BeforeTool: [{ matcher: 'run_shell_command', hooks: [{ type: 'command', command: hook }] }],
      };
      mkdirSync(join(home, '.gemini'), { recursive: true });
      writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify({ hooks }));
      await runGemini({ command: 'echo hello', description: 'Say hello', cwd, home });
      const started = (await psGroups(['--all'])).find((g) =>
        g.processes.some((p) => p.command === `sleep ${marker}`),
      );
      expect(started?.agent?.name).toBe('gemini-cli');
      const id = started?.session?.id ?? '';
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      // The same session whose chat records the CLI wrote (`…/chats/session-<date>-<first 8 of the id>.jsonl`).
      const chats = readdirSync(join(home, '.gemini', 'tmp'), { recursive: true }).map(String);
      expect(chats.some((f) => f.includes('chats/session-') && f.endsWith(`-${id.slice(0, 8)}.jsonl`))).toBe(
        true,
      );
    });
  },
);
