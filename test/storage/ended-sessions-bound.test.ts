import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { GroupView } from '../../shared/model';
import { isAlive } from '../support/proc';
import { runCli } from '../support/run-cli';
import { cleanEnv, spawnGroup, tempDirForTest } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';

const CLI = fileURLToPath(new URL('../../main/cli/corral.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url));
const MB = 1024 * 1024;

/** `corral hook claude-code SessionEnd` as the agent runs it, the payload on stdin. */
function sessionEndHook(data: string, sessionId: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TSX, CLI, 'hook', 'claude-code', 'SessionEnd'], {
      env: cleanEnv({ HOME: data, CORRAL_DATA_DIR: data }),
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    child.on('error', reject);
    child.on('close', resolve);
    child.stdin.end(JSON.stringify({ session_id: sessionId, hook_event_name: 'SessionEnd', reason: 'exit' }));
  });
}

/** A leftover of `session` (its shell gone), with no agent running: its end, once recorded, is believed. */
async function leftoverOf(session: string): Promise<number> {
  const group = spawnGroup('sleep 600 & echo $! > "$DIR/pid"', {
    env: cleanEnv({ CLAUDECODE: '1', CLAUDE_CODE_SESSION_ID: session }),
  });
  await group.ready('pid');
  await waitFor(`tool shell ${group.pid} to exit`, () => !isAlive(group.pid));
  return group.pgid;
}

async function flagsOf(data: string, pgid: number): Promise<string[] | undefined> {
  const ps = await runCli(['ps', '--all', '--json'], { env: { CORRAL_DATA_DIR: data } });
  expect(ps.code).toBe(0);
  return (JSON.parse(ps.stdout) as { groups: GroupView[] }).groups.find((g) => g.pgid === pgid)?.flags;
}

function line(sessionId: string, endedAt: number): string {
  return `${JSON.stringify({ agent: 'claude-code', sessionId, endedAt })}\n`;
}

describe(
  'ended-sessions.jsonl stays bounded, and one bad writer never erases the rest',
  { timeout: 180_000 },
  () => {
    it('a SessionEnd whose id is not shaped as a session id (1 MB) is not recorded', async () => {
      const data = tempDirForTest('corral-ended-data-');
      const path = join(data, 'hooks', 'ended-sessions.jsonl');
      const real = randomUUID();
      for (const c of ['a', 'b', 'c']) expect(await sessionEndHook(data, c.repeat(MB))).toBe(0);
      expect(await sessionEndHook(data, real)).toBe(0);
      expect(statSync(path).size).toBeLessThan(1024);
      expect(readFileSync(path, 'utf8')).toContain(real);
    });

    it('the real ends written after 70 MB of a bad writer’s lines still flag their leftovers', async () => {
      const data = tempDirForTest('corral-ended-data-');
      mkdirSync(join(data, 'hooks'), { recursive: true, mode: 0o700 });
      const path = join(data, 'hooks', 'ended-sessions.jsonl');
      const junk = line('x'.repeat(MB), Date.now());
      writeFileSync(path, '', { mode: 0o600 });
      for (let i = 0; i < 70; i++) appendFileSync(path, junk);
      const session = randomUUID();
      // As an older Corral appended it, after the junk: the reader must find it without any compaction.
      appendFileSync(path, line(session, Date.now()));
      expect(statSync(path).size).toBeGreaterThan(64 * MB);
      const pgid = await leftoverOf(session);
      expect(await flagsOf(data, pgid)).toContain('session-ended');
    });

    it('the file is compacted past its bound: old ends dropped, recent ones and the new one kept', async () => {
      const data = tempDirForTest('corral-ended-data-');
      mkdirSync(join(data, 'hooks'), { recursive: true, mode: 0o700 });
      const path = join(data, 'hooks', 'ended-sessions.jsonl');
      const old = Date.now() - 90 * 24 * 3600 * 1000;
      const stale = randomUUID();
      let text = line(stale, old);
      while (text.length <= 600 * 1024) text += line(randomUUID(), old);
      const recent = randomUUID();
      text += line(recent, Date.now() - 60_000);
      writeFileSync(path, text, { mode: 0o600 });

      const session = randomUUID();
      expect(await sessionEndHook(data, session)).toBe(0);
      const after = readFileSync(path, 'utf8');
      expect(after.length).toBeLessThan(128 * 1024);
      expect(after).toContain(recent);
      expect(after).toContain(session);
      expect(after).not.toContain(stale);
      const pgid = await leftoverOf(session);
      expect(await flagsOf(data, pgid)).toContain('session-ended');
    });
  },
);
