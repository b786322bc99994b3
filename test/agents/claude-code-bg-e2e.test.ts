import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { GroupView } from '../../shared/model';
import { CLI_ENV, psGroups } from '../provenance/live-support';
import {
  CLAUDE_CODE_VERSION,
  claudeCodeSkipReason,
  claudeCodeVersionLine,
  makeClaudeHome,
  trackGroupsOfRun,
} from '../support/claude-code';
import { bgEnv, claudeCommand, prepareBgHome, removeProcessesOfRun } from '../support/claude-code-bg';
import { startFakeMessagesApi } from '../support/fake-messages-api';
import { runCli } from '../support/run-cli';
import { startHarness } from '../support/service-harness';
import { tempDirForTest } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';
import { describeUnless } from '../support/skip';

const skip = claudeCodeSkipReason();
if (!skip) console.info(`[agent] ${claudeCodeVersionLine()}`);

const isSpare = (argv: readonly string[]): boolean => argv.includes('--bg-spare');
const isService = (argv: readonly string[]): boolean => argv[1] === 'daemon' && argv[2] === 'run';

describeUnless(skip)(`the real Claude Code ${CLAUDE_CODE_VERSION} --bg service`, () => {
  it('one service entry, its session under it, no spare as an agent, the leak attributed to the session and its call', async () => {
    const cwd = realpathSync(tempDirForTest('corral-bg-cwd-'));
    const { home } = makeClaudeHome();
    mkdirSync(join(home, 'tmp'), { recursive: true });
    prepareBgHome(home, cwd);
    const api = await startFakeMessagesApi({
      command: 'python3 -m http.server 0 >/dev/null 2>&1 &',
      description: 'Serve the files',
    });
    const env = bgEnv(home, api.baseUrl);
    const harness = startHarness();
    try {
      const bg = await claudeCommand(['--bg', '--dangerously-skip-permissions', 'Serve the files'], env, cwd);
      expect(bg.code).toBe(0);
      // The service (PPID 1, a session of its own), its hosts, spares and the leak carry this HOME: each of
      // their groups is tracked for removal by PGID whatever the test's outcome.
      const seen = await waitFor(
        'the leak of the background session, and a spare waiting',
        async () => {
          trackGroupsOfRun(home);
          const groups = await psGroups();
          const leak = groups.find((g) => g.toolCall?.id === api.toolUseId && g.flags.includes('orphan'));
          const spare = groups.some((g) => g.processes.some((p) => isSpare(p.argv) && p.sid !== p.pid));
          return leak && spare ? { groups, leak } : undefined;
        },
        { timeoutMs: 60_000, intervalMs: 500 },
      );
      const { groups, leak } = seen;
      const procs = groups.flatMap((g) => g.processes.map((p) => ({ p, g })));
      const service = procs.find(({ p }) => isService(p.argv) && p.ppid === 1);
      expect(service, 'the service process').toBeDefined();
      const servicePid = service!.p.pid;

      // One entry for the service: every group of its machinery is under the service's pid, as the service.
      const serviceGroups = groups.filter(
        (g) => g.agent?.servicePid === servicePid && g.agent.pid === servicePid,
      );
      expect(serviceGroups.map((g) => g.pgid)).toContain(servicePid);
      for (const g of serviceGroups) expect(g.processes.every((p) => p.role === 'agent-service')).toBe(true);
      expect(
        new Set(
          groups
            .filter((g) => g.agent?.servicePid === g.agent?.pid && g.agent?.servicePid)
            .map((g) => g.agent!.pid),
        ),
      ).toEqual(new Set([servicePid]));
      // No spare waiting to be claimed is an agent of its own, nor a leftover.
      for (const { p, g } of procs.filter(({ p }) => isSpare(p.argv) && p.sid !== p.pid)) {
        expect(g.agent?.pid).toBe(servicePid);
        expect(p.role).toBe('agent-service');
        expect(g.flags).not.toContain('orphan');
      }
      // The leak: flagged, attributed to the session (whose agent runs under the service) and its call.
      expect(leak.toolCall).toMatchObject({ id: api.toolUseId, description: 'Serve the files' });
      expect(leak.session?.agentAlive).toBe(true);
      expect(leak.agent?.servicePid).toBe(servicePid);
      expect(leak.agent?.pid).not.toBe(servicePid);
      const sessionAgent = procs.find(({ p }) => p.pid === leak.agent!.pid);
      expect(sessionAgent?.p.role).toBe('agent');

      const table = await runCli(['ps'], { env: { ...CLI_ENV, COLUMNS: '250' } });
      expect(table.stdout).toContain(`claude-code service (pid ${servicePid})`);
      expect(table.stdout).toContain(`claude-code (pid ${leak.agent!.pid}) · service pid ${servicePid}`);
      const agentHeadings = table.stdout.split('\n').filter((l) => l.startsWith('▸ claude-code'));
      const workers = procs.filter(
        ({ p }) => p.argv.includes('--bg-pty-host') || (isSpare(p.argv) && p.sid !== p.pid),
      );
      for (const { p } of workers) expect(agentHeadings.join('\n')).not.toContain(`(pid ${p.pid})`);

      // The agent's own session list: Corral shows the session's name and state from it (ps --json and
      // the table). The name moves once (the prompt, then the model's title): compare with the same read.
      type Listed = {
        id: string;
        pid: number;
        sessionId: string;
        name: string;
        status: string;
        state: string;
      };
      const named = await waitFor('the session as its list names it, in ps', async () => {
        const listed = await claudeCommand(['agents', '--json'], env, cwd);
        const mine = (JSON.parse(listed.stdout) as Listed[]).find((s) => s.pid === leak.agent!.pid);
        const g = (await psGroups()).find((x) => x.id === leak.id);
        return mine && g?.session?.name === mine.name && g.session.state === mine.state
          ? { mine, g }
          : undefined;
      });
      const { mine } = named;
      expect(mine.sessionId).toBe(leak.session?.id);
      expect(named.g.session).toMatchObject({ listed: 'running', kind: 'background', agentAlive: true });
      // A one-shot ps waits for the list only briefly (one-shot-snapshot.ts): a slow read is noted, not shown.
      await waitFor('the table to name the session', async () => {
        const table = await runCli(['ps'], { env: { ...CLI_ENV, COLUMNS: '250' } });
        return table.stdout.includes(`session ${mine.id} "${mine.name}"`);
      });

      // `claude stop`: the session's end is known from its list at once, before the service exits.
      expect((await claudeCommand(['stop', mine.id], env, cwd)).code).toBe(0);
      const ended = await waitFor('the session ended, as its list says', async () => {
        const g = (await psGroups()).find((x) => x.id === leak.id);
        return g?.session?.listed === 'gone' ? g : undefined;
      });
      expect(ended.session?.agentAlive).toBe(false);
      expect(ended.flags).toContain('orphan');
      // The running service reads the list off its poll, and says the same.
      const watched = await waitFor(
        'the running service to say the session ended',
        () => {
          const g = harness.running.service.snapshot().groups.find((x) => x.pgid === leak.pgid);
          return g?.session?.listed === 'gone' ? g : undefined;
        },
        { timeoutMs: 20_000 },
      );
      expect(watched.session?.agentAlive).toBe(false);
      await waitFor('the service to exit by itself', () => !existsSync(`/proc/${servicePid}`), {
        timeoutMs: 60_000,
        intervalMs: 200,
      });
      const after = await waitFor('the leak as a leftover of an ended session', async () => {
        const g = (await psGroups()).find((x: GroupView) => x.id === leak.id);
        return g?.session?.agentAlive === false ? g : undefined;
      });
      expect(after.flags).toContain('orphan');
      expect(after.toolCall?.id).toBe(api.toolUseId);
    } finally {
      await harness.stop();
      await api.close();
      await removeProcessesOfRun(home);
    }
  }, 180_000);
});
