import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { GroupView } from '../../shared/model';
import { CLI_ENV } from '../provenance/live-support';
import { FakeAgent } from '../support/fake-agent';
import { readProcStat } from '../support/proc';
import { runCli } from '../support/run-cli';
import { tempDirForTest } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';

const CLI = fileURLToPath(new URL('../../main/cli/corral.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url));
/**
 * A Stop payload as Claude Code 2.1.332 builds it (the shape read from its bundle: `background_tasks[]` of
 * the running and pending tasks, `{id, type, status, description, command}`; no run showed a non-empty list).
 */
const STOP = JSON.parse(
  readFileSync(new URL('../fixtures/claude/2.1.332/bg/hook-Stop-from-bundle.json', import.meta.url), 'utf8'),
) as Record<string, unknown>;
const SESSION = STOP.session_id as string;
const markers = {
  CLAUDECODE: '1',
  CLAUDE_CODE_ENTRYPOINT: 'cli',
  CLAUDE_CODE_SESSION_ID: SESSION,
  AI_AGENT: 'claude-code_2-1-332_agent',
};

function stopHook(data: string, tasks: unknown[]): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TSX, CLI, 'hook', 'claude-code', 'Stop'], {
      env: { PATH: '/usr/bin:/bin', HOME: data, CORRAL_DATA_DIR: data },
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    child.on('error', reject);
    child.on('close', resolve);
    child.stdin.end(JSON.stringify({ ...STOP, background_tasks: tasks }));
  });
}

async function groups(data: string): Promise<GroupView[]> {
  const ps = await runCli(['ps', '--json', '--all'], { env: { ...CLI_ENV, CORRAL_DATA_DIR: data } });
  return (JSON.parse(ps.stdout) as { groups: GroupView[] }).groups;
}

describe("the tasks Claude Code's Stop hook says it keeps running (background_tasks[])", () => {
  it('a listed call is a background task while its session lives; a background call the list dropped is a leftover', async () => {
    const data = tempDirForTest('corral-task-data-');
    const config = tempDirForTest('corral-claude-config-');
    const agent = await FakeAgent.start({
      markers,
      env: { CLAUDE_CONFIG_DIR: config },
      sessionFile: true,
      transcript: true,
    });
    // A foreground call the agent went on to keep as a task (the command its list names).
    const kept = await agent.toolCall('sleep 600 & echo started', { description: 'Watch the tests' });
    const dropped = await agent.toolCall('sleep 601 & echo started', {
      description: 'Poll',
      background: true,
    });
    await kept.exited();
    await dropped.exited();
    await waitFor('both wrappers gone', () => !readProcStat(kept.pid) && !readProcStat(dropped.pid));

    const before = await groups(data);
    expect(before.find((g) => g.pgid === kept.pid)!.flags).toContain('orphan');
    expect(before.find((g) => g.pgid === dropped.pid)!.processes.map((p) => p.role)).toEqual([
      'background-task',
    ]);

    expect(await stopHook(data, STOP.background_tasks as unknown[])).toBe(0);
    const after = await groups(data);
    const listed = after.find((g) => g.pgid === kept.pid)!;
    expect(listed.toolCall).toMatchObject({ agentTask: 'running', agentTaskId: 'b7k2q9x1' });
    expect(listed.session?.agentAlive).toBe(true);
    expect(listed.flags).not.toContain('orphan');
    expect(listed.processes.map((p) => p.role)).toEqual(['background-task']);
    const gone = after.find((g) => g.pgid === dropped.pid)!;
    expect(gone.toolCall).toMatchObject({ background: true, agentTask: 'ended' });
    expect(gone.flags).toContain('orphan');
    expect(gone.processes.map((p) => p.role)).toEqual(['tool-call']);

    // A later turn's list without it: the agent no longer keeps it, so what runs is a leftover.
    expect(await stopHook(data, [])).toBe(0);
    const later = (await groups(data)).find((g) => g.pgid === kept.pid)!;
    expect(later.flags).toContain('orphan');
  });
});
