import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import {
  CLAUDE_CODE_VERSION,
  BUILT_CLI,
  claudeWithBuiltCliSkipReason,
  makeClaudeHome,
  runClaude,
  trackGroupsOfRun,
} from '../support/claude-code';
import { startFakeMessagesApi, type FakeMessagesApi } from '../support/fake-messages-api';
import { cleanEnv, removeDir, spawnGroup } from '../support/spawned-groups';
import { describeUnless } from '../support/skip';

const reason = claudeWithBuiltCliSkipReason('the port holder is read from /proc (Linux)');

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
  `Claude Code ${CLAUDE_CODE_VERSION}: a port in use, told to the model (real CLI, fake API)`,
  { timeout: 180_000 },
  () => {
    it("the failed call's EADDRINUSE reaches the model with the port's holder named", async () => {
      // A server no agent started holds a loopback port.
      const script = join(tempDir('corral-e2e-server-'), 'serve.mjs');
      writeFileSync(
        script,
        `import { createServer } from 'node:net';
import { writeFileSync } from 'node:fs';
const server = createServer().listen(0, '127.0.0.1', () => writeFileSync(process.argv[2], server.address().port + '\\n'));
`,
      );
      const holder = spawnGroup(`exec ${process.execPath} ${script} "$DIR/port"`, { env: cleanEnv() });
      const port = Number(await holder.ready('port'));

      api = await startFakeMessagesApi({
        command: `${process.execPath} -e "require('net').createServer().listen(${port}, '127.0.0.1')"`,
        description: 'Start the server',
      });
      const { home } = makeClaudeHome();
      dirs.push(home);
      const data = tempDir('corral-e2e-data-');
      const env = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: home, CORRAL_DATA_DIR: data };
      execFileSync(process.execPath, [BUILT_CLI, 'hooks', 'install', '--agent', 'claude-code'], { env });
      const run = await runClaude({
        prompt: 'Start the server.',
        baseUrl: api.baseUrl,
        cwd: tempDir('corral-e2e-cwd-'),
        home,
        env: { CORRAL_DATA_DIR: data },
      });
      trackGroupsOfRun(home);
      expect(run.code, run.stderr).toBe(0);
      // The model saw the failure itself…
      expect(api.toolResultText()).toContain(`EADDRINUSE: address already in use 127.0.0.1:${port}`);
      // …and, in the request that carries that tool_result, Corral's note (from PostToolUseFailure).
      const conversation = api.conversationRequests();
      const next = conversation[conversation.length - 1]!;
      const body = JSON.stringify(next.body);
      expect(body).toContain(api.toolUseId);
      expect(body).toContain(`Corral: the output says port ${port} is in use`);
      // The holder's command line names its temporary paths: a long one is cut, and the note says so.
      expect(body).toMatch(
        new RegExp(
          `- Port ${port} is held by \\\\"[^"]*serve\\.mjs [^"]*\\\\"(?: \\(\\d+ more characters not shown\\))? \\(process group ${holder.pgid}, started \\d[\\dhms]* ago\\), which no agent started: it is not a leftover\\. Use another port, or ask the user about it; do not stop it\\.`,
        ),
      );
      expect(body).not.toContain(`corral kill --port ${port}`);
      expect(existsSync(join(data, 'hooks', 'hook-errors.log'))).toBe(false);
      // The settings hook the failure event: without it, this note could not have been sent.
      expect(readFileSync(join(home, '.claude', 'settings.json'), 'utf8')).toContain(
        'hook claude-code PostToolUseFailure',
      );
    });
  },
);
