import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { TeardownResult } from '../../shared/model';
import {
  CLAUDE_CODE_VERSION,
  claudeCodeSkipReason,
  claudeCodeVersionLine,
  makeClaudeHome,
  runClaude,
  trackGroupsOfRun,
} from '../support/claude-code';
import { startFakeMessagesApi } from '../support/fake-messages-api';
import { groupMembers, readProcStat } from '../support/proc';
import { runCli } from '../support/run-cli';
import { removeDir } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';
import { accepts, CLI_ENV, freePort, gitWorkTree, psGroups, waitListening } from './live-support';
import { describeUnless } from '../support/skip';

const skip = claudeCodeSkipReason();
if (!skip) console.info(`[agent] ${claudeCodeVersionLine()}`);

describeUnless(skip)(`provenance with the real Claude Code ${CLAUDE_CODE_VERSION} CLI`, () => {
  it("a leftover of a real Bash call: its session, project, cwd, port and the agent's description", async () => {
    const { root, sub } = gitWorkTree();
    let home: string | null = null;
    try {
      const port = await freePort();
      // Two leftovers of one call: the server, and a loop that is the tool-call shell's own fork (it keeps
      // the wrapper's command line). The loop waits on a FIFO opened read-write, so it never spins.
      const command = `python3 -m http.server ${port} --bind 127.0.0.1 >/dev/null 2>&1 & mkfifo .idle; until false; do read -t 1 <> .idle; done &`;
      const api = await startFakeMessagesApi({ command, description: 'Start the dev server' });
      const run = await runClaude({ prompt: 'Start the dev server', baseUrl: api.baseUrl, cwd: sub });
      await api.close();
      home = run.home;
      expect(run.code).toBe(0);
      const [pgid] = trackGroupsOfRun(run.home);
      await waitListening(port);
      const comm = (pid: number) => readFileSync(`/proc/${pid}/comm`, 'latin1').trim();
      // The tool-call shell is gone; its fork running the loop is left with the server.
      const members = groupMembers(pgid!);
      expect(members.map((p) => comm(p.pid)).sort()).toEqual(['bash', 'python3']);
      const server = members.find((p) => comm(p.pid) === 'python3')!;
      const sessionId = readFileSync(`/proc/${server.pid}/environ`, 'latin1')
        .split('\0')
        .find((e) => e.startsWith('CLAUDE_CODE_SESSION_ID='))!
        .slice('CLAUDE_CODE_SESSION_ID='.length);

      const [g] = await psGroups(['--port', String(port)]);
      expect(g).toBeDefined();
      expect(g!.agent?.name).toBe('claude-code');
      expect(g!.flags).toContain('orphan');
      // The messaging token the agent hands its tool calls is a secret: read never, so shown never.
      const token = readFileSync(`/proc/${server.pid}/environ`, 'latin1')
        .split('\0')
        .find((e) => e.startsWith('CLAUDE_CODE_MESSAGING_TOKEN='))
        ?.slice('CLAUDE_CODE_MESSAGING_TOKEN='.length);
      expect(token?.length).toBeGreaterThan(8);
      expect(JSON.stringify(g)).not.toContain(token);
      expect(g!.toolCall).toMatchObject({ id: api.toolUseId, command, description: 'Start the dev server' });
      expect(g!.session).toEqual({ id: sessionId, source: 'env', project: root, agentAlive: false });
      expect(g!.ports).toEqual([{ protocol: 'tcp', address: '127.0.0.1', port }]);
      expect(g!.processes.map((p) => [p.cwd, p.role])).toEqual([
        [sub, 'tool-call'],
        [sub, 'tool-call'],
      ]);

      // With transcripts turned off, the transcript is not read (and the rest still is).
      const configPath = join(run.home, 'corral.json');
      writeFileSync(configPath, JSON.stringify({ provenance: { transcripts: false } }));
      const off = await runCli(['ps', '--json', '--port', String(port)], {
        env: { CORRAL_CONFIG: configPath },
      });
      const [quiet] = (JSON.parse(off.stdout) as { groups: (typeof g)[] }).groups;
      // The loop's command line still shows the call's command; no id or description without the transcript.
      expect(quiet!.toolCall).toMatchObject({ id: null, command, description: null });
      expect(quiet!.session?.id).toBe(sessionId);

      const kill = await runCli(['kill', '--session', sessionId, '--json', '--grace-ms', '2000'], {
        env: CLI_ENV,
      });
      const out = JSON.parse(kill.stdout) as { results: TeardownResult[] };
      expect(kill.code).toBe(0);
      expect(out.results.map((r) => r.pgid)).toEqual([pgid]);
      expect(groupMembers(pgid!)).toEqual([]);
      expect(await accepts(port)).toBe(false);
    } finally {
      removeDir(root);
      if (home) removeDir(home);
    }
  });

  it('names the live agent of a leftover whose tool-call shell is gone, through CLAUDE_PID or its session file', async () => {
    const { root, sub } = gitWorkTree();
    const { home, configDir } = makeClaudeHome();
    let claudePid: number | null = null;
    try {
      const port = await freePort();
      const go = join(root, 'go');
      // The server leaves the tool call's session (setsid); the call then waits for the test.
      const command = `setsid python3 -m http.server ${port} --bind 127.0.0.1 >/dev/null 2>&1 < /dev/null & until [ -e ${go} ]; do sleep 0.1; done`;
      const api = await startFakeMessagesApi({ command, description: 'Serve the site' });
      const running = runClaude({ prompt: 'Serve the site', baseUrl: api.baseUrl, cwd: sub, home });
      await waitListening(port);
      const leaders = trackGroupsOfRun(home).map((pgid) => ({
        pgid,
        cmdline: readFileSync(`/proc/${pgid}/cmdline`, 'latin1'),
      }));
      claudePid = leaders.find((l) => l.cmdline.includes('claude.exe'))!.pgid;
      const wrapper = leaders.find((l) => l.cmdline.includes('shell-snapshots'))!.pgid;
      // Stop the agent, then end its tool-call shell: the shell stays an unreaped zombie (no environment,
      // no ancestry), so only the agent's session file can tie the leftover to the live agent.
      process.kill(claudePid, 'SIGSTOP');
      process.kill(-wrapper, 'SIGKILL');
      await waitFor('tool-call shell a zombie', () => readProcStat(wrapper)?.state === 'Z');

      const [g] = await psGroups(['--port', String(port)]);
      expect(g!.agent).toEqual({ name: 'claude-code', pid: claudePid });
      const sessionFile = JSON.parse(
        readFileSync(join(configDir, 'sessions', `${claudePid}.json`), 'utf8'),
      ) as {
        sessionId: string;
      };
      // What Claude Code's own list says of the session (listed, name, state) comes beside these.
      expect(g!.session).toMatchObject({
        id: sessionFile.sessionId,
        source: 'env',
        project: root,
        agentAlive: true,
      });
      // The call has no result yet: it was running when the server started.
      expect(g!.toolCall).toMatchObject({ id: api.toolUseId, command, description: 'Serve the site' });
      // Since 2.1.3xx the leftover's own CLAUDE_PID names the agent: the session file is not needed.
      const leftoverEnv = readFileSync(`/proc/${g!.processes[0]!.pid}/environ`, 'latin1');
      expect(leftoverEnv.split('\0')).toContain(`CLAUDE_PID=${claudePid}`);
      rmSync(join(configDir, 'sessions', `${claudePid}.json`));
      const [again] = await psGroups(['--port', String(port)]);
      expect(again!.agent).toEqual({ name: 'claude-code', pid: claudePid });
      expect(again!.session?.agentAlive).toBe(true);

      process.kill(claudePid, 'SIGCONT');
      claudePid = null;
      await running;
      await api.close();
    } finally {
      if (claudePid !== null) process.kill(claudePid, 'SIGCONT');
      removeDir(root);
      removeDir(home);
    }
  });
});
