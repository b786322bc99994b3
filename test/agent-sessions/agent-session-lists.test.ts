import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ListedSession } from '../../main/core/analysis/listed-sessions';
import { AgentSessionLists } from '../../main/core/agent-sessions/agent-session-lists';
import { CLAUDE_CODE_SESSIONS } from '../../main/core/agent-sessions/claude-code';
import { readProcessFacts } from '../../main/core/agent-sessions/list-sources';
import { runListCommand } from '../../main/core/agent-sessions/run-list-command';
import type { SessionListReader } from '../../main/core/agent-sessions/session-list-reader';
import { groupMembers } from '../support/proc';
import { waitFor } from '../support/wait-for';
import { cleanEnv, spawnGroup, tempDirForTest, trackGroup } from '../support/spawned-groups';

const fixture = (name: string): string =>
  readFileSync(new URL(`../fixtures/claude/2.1.332/bg/${name}`, import.meta.url), 'utf8');

/**
 * Claude Code's reader, its command a real shell that prints `list` (what `claude agents --json --all`
 * printed, recorded) and counts its runs in `runs`: the lists' own logic, run for real, on the real format.
 */
function claudeListFrom(dir: string): SessionListReader {
  return {
    ...CLAUDE_CODE_SESSIONS,
    minIntervalMs: 60_000,
    command: () => ({ file: '/bin/sh', args: ['-c', `echo run >> ${dir}/runs; cat ${dir}/list`] }),
  };
}

/** Lists read with that reader, for an agent said to run as this process's user, in a HOME of its own. */
function listsReading(first: string, clock: { now: number }) {
  const dir = tempDirForTest('corral-list-');
  const home = tempDirForTest('corral-list-home-');
  writeFileSync(join(dir, 'list'), fixture(first));
  const notes: string[] = [];
  const lists = new AgentSessionLists({
    readers: new Map([['claude-code', claudeListFrom(dir)]]),
    facts: () => ({ exe: '/bin/sh', env: new Map([['HOME', home]]), gid: process.getgid!() }),
    now: () => clock.now,
    report: (m) => notes.push(m),
  });
  const agents = [{ agent: 'claude-code', pid: process.pid, uid: process.getuid!(), argv: ['claude'] }];
  return { dir, lists, notes, agents };
}

describe("the agents' own session lists", () => {
  it("reads a running agent's exe, environment and group from /proc", async () => {
    const g = spawnGroup('sleep 30', {
      env: cleanEnv({ HOME: '/nonexistent-home', CLAUDE_CONFIG_DIR: '/cfg' }),
    });
    await new Promise((r) => setTimeout(r, 100));
    const facts = readProcessFacts(g.pid);
    expect(facts?.exe).toMatch(/\/(bash|sleep)$/);
    expect(facts?.env.get('HOME')).toBe('/nonexistent-home');
    expect(facts?.env.get('CLAUDE_CONFIG_DIR')).toBe('/cfg');
    expect(facts?.gid).toBe(process.getgid!());
  });

  it('a list that does not answer in time is stopped by its own group, every process of it', async () => {
    const dir = tempDirForTest('corral-list-');
    const result = await runListCommand({
      file: '/bin/sh',
      args: ['-c', `echo $$ > ${dir}/pid; sleep 30 & sleep 30`],
      env: { PATH: '/usr/bin:/bin' },
      cwd: dir,
      timeoutMs: 500,
    });
    const pgid = Number(readFileSync(join(dir, 'pid'), 'utf8'));
    trackGroup(pgid);
    expect(result).toEqual({ problem: 'no answer within 500 ms (stopped)' });
    // SIGKILL was sent to the group: each of its processes (the shell and both sleeps) goes.
    await waitFor("the list command's group to empty", () => groupMembers(pgid).length === 0);
  });

  it('names a listed session; one a later read no longer lists (or lists stopped) is gone; at most once per interval', async () => {
    const clock = { now: 1_000_000 };
    const { dir, lists, notes, agents } = listsReading('agents-busy.json', clock);
    await lists.readDue(agents);
    const id = '9488d5a7-000d-4434-b1cf-422d6b27d35f';
    expect(lists.current().running.get(id)).toMatchObject<Partial<ListedSession>>({
      name: 'Sleep a while',
      status: 'busy',
      state: 'working',
      pid: 74,
    });
    // Within the interval: no second run, whatever the list now says.
    writeFileSync(join(dir, 'list'), fixture('agents-after-stop.json'));
    await lists.readDue(agents);
    expect(readFileSync(join(dir, 'runs'), 'utf8')).toBe('run\n');
    expect(lists.current().gone.size).toBe(0);
    clock.now += 60_000;
    await lists.readDue(agents);
    expect(lists.current().running.size).toBe(0);
    expect(lists.current().gone.get(id)).toEqual({ agent: 'claude-code', goneAt: clock.now });
    expect(notes).toEqual([]);
  });

  it('a session the list names stopped is gone at the first read; a changed format changes nothing and is noted once', async () => {
    const clock = { now: 0 };
    const { dir, lists, notes, agents } = listsReading('agents-all-after-stop.json', clock);
    await lists.readDue(agents);
    expect([...lists.current().gone.keys()]).toEqual(['9488d5a7-000d-4434-b1cf-422d6b27d35f']);
    writeFileSync(join(dir, 'list'), '{"agents": []}');
    for (let i = 0; i < 3; i++) {
      clock.now += 60_000;
      await lists.readDue(agents);
    }
    expect(lists.current().gone.size).toBe(1);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('a format not known (not a JSON array)');
    // No agent of its kind runs: nothing is read, nothing is listed.
    clock.now += 60_000;
    await lists.readDue([]);
    expect(readFileSync(join(dir, 'runs'), 'utf8').trim().split('\n')).toHaveLength(4);
    expect(lists.current().running.size).toBe(0);
  });
});
