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

function runHook(event: string, stdin: string, data: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TSX, CLI, 'hook', 'claude-code', event], {
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

    const ps = await runCli(['ps', '--all', '--json'], { env: { CORRAL_DATA_DIR: data } });
    const left = (JSON.parse(ps.stdout) as { groups: GroupView[] }).groups.find((g) =>
      g.processes.some((p) => p.pid === pid),
    );
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
});
