import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FakeAgent } from '../support/fake-agent';
import { readProcStat } from '../support/proc';
import { removeDir } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';
import { runCli } from '../support/run-cli';
import { CLI_ENV, psGroups } from '../provenance/live-support';

const SESSION = '7a1c2d3e-3333-4b5c-8d9e-cccccccccccc';
const markers = {
  CLAUDECODE: '1',
  CLAUDE_CODE_ENTRYPOINT: 'cli',
  CLAUDE_CODE_SESSION_ID: SESSION,
  AI_AGENT: 'claude-code_2-1-197_agent',
};

describe('a background task the agent started on purpose (run_in_background)', () => {
  it('is role background-task and not flagged left behind while the agent lives, a flagged tool call again once it is gone; a foreground call never is', async () => {
    const config = realpathSync(mkdtempSync(join(tmpdir(), 'corral-claude-config-')));
    try {
      const agent = await FakeAgent.start({
        markers,
        env: { CLAUDE_CONFIG_DIR: config },
        sessionFile: true,
        transcript: true,
      });
      const background = await agent.toolCall('sleep 600 & echo started', {
        description: 'Watch the tests',
        background: true,
      });
      const foreground = await agent.toolCall('sleep 601 & echo started');
      await background.exited();
      await foreground.exited();
      await waitFor(
        'both wrappers gone',
        () => !readProcStat(background.pid) && !readProcStat(foreground.pid),
      );

      const groups = await psGroups();
      const bg = groups.find((g) => g.pgid === background.pid)!;
      expect(bg.toolCall).toMatchObject({ description: 'Watch the tests', background: true });
      expect(bg.session).toMatchObject({ id: SESSION, agentAlive: true });
      expect(bg.processes.map((p) => p.role)).toEqual(['background-task']);
      // No leftover while its session lives: not flagged left behind, and `ps` says what it is.
      expect(bg.flags).not.toContain('orphan');
      expect(bg.flags).not.toContain('leaderless');
      expect(bg.processes[0]!.flags).not.toContain('orphan');
      const table = await runCli(['ps'], { env: { ...CLI_ENV, COLUMNS: '200' } });
      expect(table.stdout).toMatch(/\(background task\) Watch the tests: sleep 600/);
      const fg = groups.find((g) => g.pgid === foreground.pid)!;
      expect(fg.toolCall?.background).toBeUndefined();
      expect(fg.processes.map((p) => p.role)).toEqual(['tool-call']);
      expect(fg.flags).toContain('orphan');

      process.kill(agent.pid, 'SIGKILL');
      await waitFor('the agent gone', () => readProcStat(agent.pid) === null);
      const after = (await psGroups()).find((g) => g.pgid === background.pid)!;
      expect(after.session?.agentAlive).not.toBe(true);
      expect(after.processes.map((p) => p.role)).toEqual(['tool-call']);
      expect(after.flags).toContain('orphan');
    } finally {
      removeDir(config);
    }
  });
});
