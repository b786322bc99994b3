import { randomBytes } from 'node:crypto';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GroupView } from '../../shared/model';
import { FakeAgent } from '../support/fake-agent';
import { readProcStat } from '../support/proc';
import { runCli } from '../support/run-cli';
import { spawnGroup, tempDirForTest } from '../support/spawned-groups';
import { toolCallLeavingTail } from '../support/tool-call-leftover';
import { waitFor } from '../support/wait-for';

interface PsJson {
  sampledAt: number;
  groups: GroupView[];
}

async function psJson(all = false): Promise<PsJson> {
  const result = await runCli(['ps', '--json', ...(all ? ['--all'] : [])], {
    env: { CORRAL_CONFIG: '/nonexistent' },
  });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as PsJson;
}

describe('corral ps', () => {
  it('shows one group per tool call, attributed to claude-code, and the agent group separately', async () => {
    const agent = await FakeAgent.start();
    const dir = tempDirForTest('corral-ps-');
    // Two tool calls whose shells exit and leave background children behind, like the first seed.
    const first = await agent.toolCall(`sleep 600 & echo $! > ${dir}/a; echo done`);
    const second = await agent.toolCall(`(sleep 600 & sleep 600 & wait) & echo $! > ${dir}/b; echo done`);
    await first.exited();
    await second.exited();
    await waitFor(
      'both wrappers gone',
      () => readProcStat(first.pid) === null && readProcStat(second.pid) === null,
    );

    const { groups } = await psJson();
    const byPgid = new Map(groups.map((g) => [g.pgid, g]));
    const agentGroup = byPgid.get(agent.pid);
    expect(agentGroup?.agent).toEqual({ name: 'claude-code', pid: agent.pid });
    expect(agentGroup?.containsAgent).toBe(true);
    expect(agentGroup?.leaderAlive).toBe(true);

    for (const call of [first, second]) {
      const group = byPgid.get(call.pid);
      expect(group, `group of tool call ${call.pid}`).toBeDefined();
      expect(group!.sid).toBe(call.pid);
      expect(group!.leaderAlive).toBe(false);
      expect(group!.agent?.name).toBe('claude-code');
      expect(group!.containsAgent).toBe(false);
      expect(group!.flags).toEqual(expect.arrayContaining(['orphan', 'leaderless']));
      for (const p of group!.processes) {
        expect(p.pgid).toBe(call.pid);
        expect(p.sid).toBe(call.pid);
        const truth = readProcStat(p.pid);
        expect(truth?.ppid).toBe(p.ppid);
      }
    }
    expect(byPgid.get(first.pid)!.processes.map((p) => p.command)).toEqual(['sleep 600']);
    // The subshell and its two sleeps: the subshell is the orphan (adopted by PID 1), the sleeps' parent lives.
    const second_ = byPgid.get(second.pid)!;
    expect(second_.processes).toHaveLength(3);
    expect(second_.processes.filter((p) => p.flags.includes('orphan'))).toHaveLength(1);
    expect(second_.id).toMatch(/^\d+:\d+:\d+$/);
  });

  it('reports the true PGID and SID of a process whose name is full of spaces and parentheses', async () => {
    const dir = tempDirForTest('corral-name-');
    const hostile = join(dir, 'a) R 1 1 (b');
    copyFileSync('/bin/sleep', hostile);
    const group = spawnGroup(`'${hostile}' 600 & echo $! > "$DIR/pid"; wait`);
    const pid = Number(await group.ready('pid'));
    // Until the exec, the forked child still carries bash's name.
    await waitFor('hostile name exec', () => readFileSync(`/proc/${pid}/comm`, 'utf8') === 'a) R 1 1 (b\n');

    const { groups } = await psJson(true);
    const found = groups.flatMap((g) => g.processes).find((p) => p.pid === pid);
    expect(found).toBeDefined();
    expect(found!.name).toBe('a) R 1 1 (b');
    expect(found!.pgid).toBe(group.pgid);
    expect(found!.sid).toBe(group.pgid);
    expect(found!.ppid).toBe(group.pid);
    expect(groups.find((g) => g.pgid === group.pgid)?.agent).toBeNull();
  });

  it('does not attribute a plain process to an agent, even from a shell that carries no markers', async () => {
    const group = spawnGroup('nohup sleep 600 >/dev/null 2>&1 & echo $! > "$DIR/pid"');
    const pid = Number(await group.ready('pid'));
    await waitFor('wrapper gone', () => readProcStat(group.pid) === null);
    const { groups } = await psJson();
    expect(groups.flatMap((g) => g.processes).some((p) => p.pid === pid)).toBe(false);
    const all = await psJson(true);
    const mine = all.groups.find((g) => g.pgid === group.pgid);
    expect(mine?.agent).toBeNull();
    expect(mine?.processes[0]?.flags).not.toContain('orphan');
  });

  it('flags the tool calls of a SIGKILLed agent as orphans, as watch does', async () => {
    const agent = await FakeAgent.start();
    const call = await agent.toolCall('sleep 600');
    process.kill(agent.pid, 'SIGKILL');
    await waitFor('the tool call adopted', () => readProcStat(call.pid)?.ppid === 1);
    const { groups } = await psJson();
    const group = groups.find((g) => g.pgid === call.pid);
    expect(group?.agent?.name).toBe('claude-code');
    expect(group?.flags).toContain('orphan');
    expect(group?.processes.find((p) => p.pid === call.pid)?.flags).toContain('orphan');
  });

  it('flags a leftover that holds the tool call output open as held-pipe, as watch does', async () => {
    const agent = await FakeAgent.start();
    const dir = tempDirForTest('corral-ps-pipe-');
    const call = await agent.toolCall(`sleep 600 & echo $! > ${dir}/pid; printf 'hi\\n'`);
    await call.exited();
    const pid = Number(readFileSync(join(dir, 'pid'), 'utf8'));
    const { groups } = await psJson();
    const group = groups.find((g) => g.pgid === call.pid);
    expect(group?.flags).toContain('held-pipe');
    expect(group?.processes.find((p) => p.pid === pid)?.flags).toContain('held-pipe');
  });

  it('rejects bad arguments with usage and a non-zero exit', async () => {
    const bad = await runCli(['ps', '--bogus']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Usage:');
    const unknown = await runCli(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'frobnicate'");
  });

  it('tells two Codex sessions begun within a minute apart in its headings (their ids share the first 8)', async () => {
    // Codex's thread ids are UUIDv7: the first 12 hex digits are the start in ms, so the first 8 change
    // every 65.5 s. Two sessions begun a second apart, in the same such span:
    const start = Date.now() - (Date.now() % 65_536) + 1_000;
    const [a, b] = [start, start + 1_000].map((ms) => {
      const hex = ms.toString(16).padStart(12, '0') + randomBytes(10).toString('hex');
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
    }) as [string, string];
    expect(a.slice(0, 8)).toBe(b.slice(0, 8));
    for (const thread of [a, b]) await toolCallLeavingTail({ CODEX_CI: '1', CODEX_THREAD_ID: thread });

    const result = await runCli(['ps', '--all'], { env: { CORRAL_CONFIG: '/nonexistent', COLUMNS: '300' } });
    const shorts = result.stdout
      .split('\n')
      .flatMap((l) => /^▸ codex · .* session (\S+) ·/.exec(l)?.[1] ?? []);
    expect(shorts).toHaveLength(2);
    // Each heading names one session only, by a prefix `corral kill --session` takes (8 characters or more).
    for (const id of [a, b]) expect(shorts.filter((s) => s.length >= 8 && id.startsWith(s))).toHaveLength(1);
  });
});
