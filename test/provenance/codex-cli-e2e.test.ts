import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { trackGroupsOfRun } from '../support/claude-code';
import { codexSkipReason, runCodex } from '../support/codex-cli';
import { startFakeResponsesApi } from '../support/fake-responses-api';
import { groupMembers } from '../support/proc';
import { removeDir } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';
import { gitWorkTree, psGroups } from './live-support';
import { describeUnless } from '../support/skip';

const skip = codexSkipReason();

describeUnless(skip)('provenance with the real Codex CLI', () => {
  it('a leftover of a real exec_command call: its thread, and the call read back from the session file', async () => {
    const { root, sub } = gitWorkTree();
    let home: string | null = null;
    try {
      // Codex 0.171 ends a call by killing its process group (observed: a plain `sleep 600 &` did not
      // outlive the call), so the leftover here is one that left it with setsid, as dev servers do with
      // nohup/setsid; the call returns once the escaped process is in its own session.
      const command =
        "setsid sh -c 'echo $$ > .escaped; exec sleep 600' >/dev/null 2>&1 </dev/null & until [ -s .escaped ]; do sleep 0.05; done; echo started";
      const api = await startFakeResponsesApi({ command });
      const run = await runCodex({
        prompt: 'Start a long sleep in the background',
        baseUrl: api.baseUrl,
        cwd: sub,
      });
      await api.close();
      home = run.home;
      expect(run.code, run.stderr).toBe(0);
      const [pgid] = trackGroupsOfRun(run.home);
      expect(pgid).toBeDefined();
      const sleep = await waitFor('the leftover sleep', () => groupMembers(pgid!)[0]);
      const env = readFileSync(`/proc/${sleep.pid}/environ`, 'latin1').split('\0');
      const value = (key: string) => env.find((e) => e.startsWith(`${key}=`))?.slice(key.length + 1);
      // What Codex hands its tool calls (observed with 0.171.0).
      expect(value('CODEX_TOOL_CALL_ID')).toBe(api.callId);
      const thread = value('CODEX_THREAD_ID')!;
      expect(thread).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
      expect(value('CODEX_HOME')).toBe(run.codexHome);

      const groups = await psGroups();
      const g = groups.find((x) => x.pgid === pgid)!;
      expect(g.agent?.name).toBe('codex');
      expect(g.session).toMatchObject({ id: thread, source: 'env', project: root, agentAlive: false });
      // The shell that ran the call has exited: only the session file can give its command back.
      expect(g.toolCall).toMatchObject({ id: api.callId, command, description: null });
      expect(g.processes.map((p) => [p.cwd, p.role])).toEqual([[sub, 'tool-call']]);
    } finally {
      removeDir(root);
      if (home) removeDir(home);
    }
  });
});
