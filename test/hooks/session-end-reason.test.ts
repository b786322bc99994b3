import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { notePortFacts } from '../../main/core/monitor/incidents/incident-port-glue';
import { readPortFacts } from '../../main/core/storage/incident-port-facts';
import type { GroupView, Incident } from '../../shared/model';
import { isAlive } from '../support/proc';
import { runCli } from '../support/run-cli';
import { cleanEnv, spawnGroup, tempDirForTest } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';

const CLI = fileURLToPath(new URL('../../main/cli/corral.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url));
/** What Claude Code 2.1.332's SessionEnd sent after `claude stop <id>` (reason `other`). */
const RECORDED = new URL('../fixtures/claude/2.1.332/bg/hook-SessionEnd.json', import.meta.url);
/** What Gemini CLI 0.61.0's SessionEnd sent (reason `exit`). */
const GEMINI_RECORDED = new URL('../fixtures/gemini/0.61.0/hook-SessionEnd.json', import.meta.url);

async function psGroupOf(pid: number, data: string): Promise<GroupView | undefined> {
  const ps = await runCli(['ps', '--all', '--json'], { env: { CORRAL_DATA_DIR: data } });
  return (JSON.parse(ps.stdout) as { groups: GroupView[] }).groups.find((g) =>
    g.processes.some((p) => p.pid === pid),
  );
}

function runHook(event: string, stdin: string, data: string, agent = 'claude-code'): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TSX, CLI, 'hook', agent, event], {
      env: { PATH: '/usr/bin:/bin', HOME: data, CORRAL_DATA_DIR: data },
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    child.on('error', reject);
    child.on('close', resolve);
    child.stdin.end(stdin);
  });
}

describe("SessionEnd's reason", { timeout: 120_000 }, () => {
  it("is the ended session's on its leftovers in corral ps, and goes into the incident", async () => {
    const data = tempDirForTest('corral-end-reason-');
    const session = randomUUID();
    const group = spawnGroup('sleep 600 & echo $! > "$DIR/pid"', {
      env: cleanEnv({ CLAUDECODE: '1', CLAUDE_CODE_SESSION_ID: session }),
    });
    const pid = Number(await group.ready('pid'));
    await waitFor(`tool shell ${group.pid} to exit`, () => !isAlive(group.pid));

    const recorded = JSON.parse(readFileSync(RECORDED, 'utf8')) as Record<string, unknown>;
    expect(recorded.reason).toBe('other');
    expect(await runHook('SessionEnd', JSON.stringify({ ...recorded, session_id: session }), data)).toBe(0);

    const left = await psGroupOf(pid, data);
    expect(left?.flags).toContain('session-ended');
    expect(left?.session).toMatchObject({ id: session, endReason: 'other' });

    // The incident the monitor keeps for that group takes it from the view, and it survives the store.
    const incident = { session: { id: session, project: null } } as unknown as Incident;
    expect(notePortFacts(incident, left!)).toBe(true);
    const project = left!.session!.project;
    expect(incident.session).toEqual({ id: session, project, endReason: 'other' });
    expect(readPortFacts(JSON.parse(JSON.stringify(incident)) as Record<string, unknown>).session).toEqual({
      id: session,
      project,
      endReason: 'other',
    });
  });

  it('Gemini CLI: what its hooks start carries GEMINI_SESSION_ID, so it has that session and ends with it', async () => {
    const data = tempDirForTest('corral-gemini-end-');
    const session = randomUUID();
    // A hook command's environment as Gemini CLI 0.61.0 builds it (HookRunner): the relaunched CLI's
    // own (GEMINI_CLI_NO_RELAUNCH) plus GEMINI_SESSION_ID, the payload's session_id. Its tool calls have none.
    const group = spawnGroup('sleep 600 & echo $! > "$DIR/pid"', {
      env: cleanEnv({ GEMINI_CLI_NO_RELAUNCH: 'true', GEMINI_SESSION_ID: session, GEMINI_CWD: '/tmp' }),
    });
    const pid = Number(await group.ready('pid'));
    await waitFor(`hook shell ${group.pid} to exit`, () => !isAlive(group.pid));
    const before = await psGroupOf(pid, data);
    expect(before?.agent?.name).toBe('gemini-cli');
    expect(before?.session?.id).toBe(session);
    expect(before?.flags).not.toContain('session-ended');

    const recorded = JSON.parse(readFileSync(GEMINI_RECORDED, 'utf8')) as Record<string, unknown>;
    expect(recorded.hook_event_name).toBe('SessionEnd');
    const payload = JSON.stringify({ ...recorded, session_id: session });
    expect(await runHook('SessionEnd', payload, data, 'gemini-cli')).toBe(0);
    const after = await psGroupOf(pid, data);
    expect(after?.flags).toContain('session-ended');
    expect(after?.session).toMatchObject({ id: session, endReason: recorded.reason });
  });
});
