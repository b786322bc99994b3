import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import {
  CLAUDE_CODE_VERSION,
  claudeCodeSkipReason,
  claudeCodeVersionLine,
  makeClaudeHome,
  runClaude,
  trackGroupsOfRun,
} from '../support/claude-code';
import { startFakeMessagesApi } from '../support/fake-messages-api';
import { runCli } from '../support/run-cli';
import { removeDir, trackGroup } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';
import { CLI_ENV, psGroups } from '../provenance/live-support';
import { describeUnless } from '../support/skip';

const skip = claudeCodeSkipReason();
if (!skip) console.info(`[agent] ${claudeCodeVersionLine()}`);

describeUnless(skip)(`a background task of the real Claude Code ${CLAUDE_CODE_VERSION}`, () => {
  it('run_in_background: a background task of its session while claude runs, a flagged leftover once the session ended', async () => {
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), 'corral-bg-cwd-')));
    const { home } = makeClaudeHome();
    try {
      const go = join(cwd, 'go');
      // The reader leaves the call's shell (a subshell that exits: it is reparented), the shell waits for
      // the test. Claude Code runs the call in the background and `claude -p` waits for it.
      const command = `(tail -f /dev/null >/dev/null 2>&1 &); until [ -e ${go} ]; do sleep 0.1; done`;
      const api = await startFakeMessagesApi({
        command,
        description: 'Follow the log',
        extraInput: { run_in_background: true },
      });
      const running = runClaude({ prompt: 'Follow the log', baseUrl: api.baseUrl, cwd, home });
      const comm = (pid: number): string => readFileSync(`/proc/${pid}/comm`, 'latin1').trim();
      const bg = await waitFor('the background call and its reader in ps', async () => {
        trackGroupsOfRun(home);
        const groups = await psGroups();
        return groups.find(
          (g) => g.toolCall?.id === api.toolUseId && g.processes.some((p) => comm(p.pid) === 'tail'),
        );
      });
      // Removed by its PGID after the test, whatever the test's outcome.
      trackGroup(bg.pgid);
      expect(bg.toolCall).toMatchObject({ command, description: 'Follow the log', background: true });
      expect(bg.session?.agentAlive).toBe(true);
      // The reader was reparented (the fact stays), yet nothing says it was left behind.
      const reader = bg.processes.find((p) => comm(p.pid) === 'tail')!;
      expect(bg.processes.map((p) => p.pid)).not.toContain(reader.ppid);
      expect(bg.flags).not.toContain('orphan');
      expect(bg.processes.every((p) => p.role === 'background-task' && !p.flags.includes('orphan'))).toBe(
        true,
      );
      const table = await runCli(['ps'], { env: { ...CLI_ENV, COLUMNS: '250' } });
      expect(table.stdout).toContain('(background task) Follow the log');

      // The call ends, then the session: claude -p exits once its background task is done.
      writeFileSync(go, '');
      const run = await running;
      await api.close();
      expect(run.code).toBe(0);
      const after = await waitFor('the reader flagged as a leftover', async () => {
        const g = (await psGroups()).find((x) => x.processes.some((p) => p.pid === reader.pid));
        return g?.flags.includes('orphan') ? g : undefined;
      });
      expect(after.session?.agentAlive).toBe(false);
      expect(after.toolCall?.background).toBe(true);
      expect(after.processes.map((p) => p.role)).toEqual(['tool-call']);
    } finally {
      removeDir(cwd);
      removeDir(home);
    }
  });
});
