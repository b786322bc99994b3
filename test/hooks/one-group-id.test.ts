import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import type { GroupView, Incident, TeardownResult } from '../../shared/model';
import { hookSocketPath } from '../../main/core/hooks-setup/hook-socket-path';
import { writeHookClient } from '../../main/core/hooks-setup/hook-client-script';
import { shellQuote } from '../../main/core/hooks-setup/shell-quote';
import { neighbouringFreePorts, writeDevServerScript } from '../support/dev-server';
import { runCli } from '../support/run-cli';
import { cleanEnv, tempDirForTest, trackGroup } from '../support/spawned-groups';
import { describeEvents, waitFor } from '../support/wait-for';
import { BUILT_CLI, startWatchJson, type WatchJson } from '../support/watch-json';
import { describeUnless } from '../support/skip';

// The built CLI and hook, as an installed Corral runs them (the watch answers the hook itself).
const BUILT_HOOK = fileURLToPath(new URL('../../out/main/corral-hook.js', import.meta.url));
const reason =
  process.platform !== 'linux'
    ? 'the service answers hooks on Linux only'
    : !existsSync(BUILT_CLI) || !existsSync(BUILT_HOOK)
      ? 'out/ is missing (npm run build)'
      : undefined;

async function stopWatch(w: WatchJson): Promise<void> {
  const exit = new Promise((resolve) => w.child.on('exit', resolve));
  w.child.kill('SIGTERM');
  await exit;
}

describeUnless(reason)('one group, one id (issue 47)', () => {
  it('the id in the hook note is the id watch, ps, history, a later watch and kill --port give the group', async () => {
    const dataDir = tempDirForTest('corral-one-id-');
    const work = tempDirForTest('corral-one-id-work-');
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/root',
      CORRAL_DATA_DIR: dataDir,
      CORRAL_CONFIG: '/nonexistent',
    };
    const watch = startWatchJson(env);
    const explain = (): string => `${describeEvents(watch.events)}\nstderr: ${watch.stderr()}`;
    try {
      // The agent's hooks reach the running watch through the command client (Codex's way).
      const client = writeHookClient(dataDir, `${shellQuote(process.execPath)} ${shellQuote(BUILT_HOOK)}`);
      const session = randomUUID();
      const markers = { CODEX_THREAD_ID: session, CODEX_CI: '1', CORRAL_DATA_DIR: dataDir };
      const hook = async (event: string): Promise<string> => {
        const child = spawn('perl', [client, 'hook', 'codex', event], { env: cleanEnv(markers) });
        let out = '';
        child.stdout.on('data', (c: Buffer) => (out += c.toString()));
        child.stdin.end(
          JSON.stringify({
            session_id: session,
            tool_use_id: 'call_1',
            tool_name: 'Bash',
            tool_input: { command: 'node server.mjs &' },
            hook_event_name: event,
          }),
        );
        expect(await new Promise((r) => child.on('close', r))).toBe(0);
        return out;
      };
      // Something to watch first: the watch answers hooks once it runs.
      await waitFor('the watch to answer hooks', () => existsSync(hookSocketPath(dataDir)), {
        timeoutMs: 20_000,
        explain,
      });
      expect(await hook('PreToolUse')).toBe('');

      // The tool call's shell starts a server and waits for GO: the watch sees it lead its group.
      const port = await neighbouringFreePorts(1);
      const server = writeDevServerScript(work, 'server.mjs');
      const ready = join(work, 'ready');
      const go = join(work, 'go');
      const shell = spawn(
        '/bin/bash',
        [
          '-c',
          `${shellQuote(process.execPath)} ${shellQuote(server)} ${port} ${shellQuote(ready)} >/dev/null 2>&1 & ` +
            `while [ ! -e ${shellQuote(go)} ]; do sleep 0.05; done`,
        ],
        { detached: true, stdio: 'ignore', env: cleanEnv(markers) },
      );
      trackGroup(shell.pid!);
      const pgid = shell.pid!;
      const started = await waitFor(
        'the watch to see the tool call lead its group',
        () => watch.events.find((e) => e.type === 'group-started' && e.pgid === pgid),
        { timeoutMs: 20_000, explain },
      );
      expect(started.groupId).toBe(`${pgid}:${pgid}:${started.groupId.split(':')[2]}`);
      await waitFor('the server to listen', () => existsSync(ready));
      writeFileSync(go, '');
      await new Promise((r) => shell.on('exit', r));
      await waitFor(
        'the watch to see the server outlive its shell',
        () => watch.events.find((e) => e.type === 'orphaned' && e.pgid === pgid),
        { explain },
      );

      // The hook's note, answered by the watch after the shell (the group's leader) exited.
      const note = (
        JSON.parse(await hook('PostToolUse')) as { hookSpecificOutput: { additionalContext: string } }
      ).hookSpecificOutput.additionalContext;
      const noted = /corral kill (\S+)/.exec(note)?.[1];
      expect(noted, note).toBe(started.groupId);

      await waitFor('the incident recorded', () =>
        watch.events.find((e) => e.type === 'incident-opened' && e.pgid === pgid),
      );
      const cliEnv = { CORRAL_DATA_DIR: dataDir, CORRAL_CONFIG: '/nonexistent' };
      const ps = await runCli(['ps', '--json'], { env: cliEnv });
      const psGroup = (JSON.parse(ps.stdout) as { groups: GroupView[] }).groups.find((g) => g.pgid === pgid);
      expect(psGroup?.id, ps.stdout).toBe(noted);
      const history = await runCli(['history', '--json'], { env: cliEnv });
      const incident = (JSON.parse(history.stdout) as { incidents: Incident[] }).incidents.find(
        (i) => i.pgid === pgid,
      );
      expect(incident?.groupId, history.stdout).toBe(noted);

      // A watch started after the leader exited names the group as the first one did.
      const later = startWatchJson(env);
      try {
        const seen = await waitFor(
          'the later watch to see the group',
          () => later.events.find((e) => e.type === 'group-started' && e.pgid === pgid),
          { timeoutMs: 20_000, explain: () => `${describeEvents(later.events)}\nstderr: ${later.stderr()}` },
        );
        expect(seen.groupId).toBe(noted);
      } finally {
        await stopWatch(later);
      }

      const kill = await runCli(['kill', '--port', String(port), '--json'], { env: cliEnv });
      const stopped = JSON.parse(kill.stdout) as { results: TeardownResult[] };
      expect(
        stopped.results.map((r) => r.groupId),
        kill.stdout,
      ).toEqual([noted]);
      expect(kill.code, kill.stdout).toBe(0);
    } finally {
      await stopWatch(watch);
    }
  });
});
