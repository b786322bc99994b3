import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { CLAUDE_MARKERS, FakeAgent } from '../support/fake-agent';
import { startHarness, type Harness } from '../support/service-harness';
import { cleanEnv, tempDirForTest, trackGroup } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';

const SLOW_EXEC_AGENT = fileURLToPath(new URL('../fixtures/slow-exec-agent.py', import.meta.url));

let harness: Harness | null = null;
afterEach(async () => {
  await harness?.stop();
  harness = null;
});

/** Waits for `name` in `dir` to be written whole (the fixtures end each file with a newline). */
function readyFile(dir: string, name: string): Promise<string> {
  return waitFor(`${name} in ${dir}`, () => {
    try {
      const text = readFileSync(join(dir, name), 'utf8');
      return text.endsWith('\n') ? text.trim() : undefined;
    } catch {
      return undefined;
    }
  });
}

describe('the monitor’s process table (real processes under a fake agent)', () => {
  it.each([
    [
      'setsid … &',
      (dir: string) => `setsid bash -c 'echo $$ > ${dir}/pid; exec sleep 600' >/dev/null 2>&1 & echo ok`,
    ],
    [
      'setsid -f',
      (dir: string) => `setsid -f bash -c 'echo $$ > ${dir}/pid; exec sleep 600' >/dev/null 2>&1; echo ok`,
    ],
    [
      'nohup setsid … &',
      (dir: string) =>
        `nohup setsid bash -c 'echo $$ > ${dir}/pid; exec sleep 600' >/dev/null 2>&1 & echo ok`,
    ],
  ])(
    'flags a %s escape whose shell exits at once as an orphan and opens its incident',
    async (_, command) => {
      harness = startHarness();
      const agent = await FakeAgent.start();
      const dir = tempDirForTest('corral-setsid-');
      const call = await agent.toolCall(command(dir));
      const pid = Number(await readyFile(dir, 'pid'));
      trackGroup(pid);
      await call.exited();
      const orphaned = await harness.next('orphaned', (e) => e.pid === pid);
      expect(orphaned.agent?.name).toBe('claude-code');
      // Seen before or after its setsid, it ends in a session and group of its own, flagged there.
      const group = await waitFor('its own group flagged orphan', () =>
        harness!.running.service
          .snapshot()
          .groups.find((g) => g.pgid === pid && g.sid === pid && g.flags.includes('orphan')),
      );
      expect(group.processes.find((p) => p.pid === pid)?.flags).toContain('orphan');
      const incident = await waitFor('an incident naming it', async () =>
        (await harness!.running.service.incidents()).find((i) => i.processes.some((p) => p.pid === pid)),
      );
      expect(incident.agent).toBe('claude-code');
    },
  );

  it('reports a process first seen as a zombie as started and exited', async () => {
    const agent = await FakeAgent.start();
    const dir = tempDirForTest('corral-zombie-');
    // The child exits only once its shell has become `sleep` (read with a builtin: no fork), which never
    // reaps it; exiting earlier, it could be reaped by bash before the exec.
    const call = await agent.toolCall(
      `( until read -r c < /proc/$$/comm && [ "$c" = sleep ]; do :; done ) & echo $! > ${dir}/pid; exec sleep 600`,
    );
    const pid = Number(await readyFile(dir, 'pid'));
    await waitFor('the child to be a zombie', () => {
      try {
        return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z');
      } catch {
        return false;
      }
    });
    // Started once the zombie exists, the monitor's first look finds it dead already.
    harness = startHarness();
    const started = await harness.next('process-started', (e) => e.pid === pid);
    const exited = await harness.next('process-exited', (e) => e.pid === pid);
    expect(started.pgid).toBe(call.pid);
    expect(exited.at).toBeGreaterThanOrEqual(started.at);
    expect(harness.events.filter((e) => e.type === 'process-exited' && e.pid === pid)).toHaveLength(1);
  });

  it("takes a tool-call shell read between fork and exec for its agent's tool call, before and after it execs", async () => {
    harness = startHarness();
    const dir = tempDirForTest('corral-slow-exec-');
    execFileSync('mkfifo', [join(dir, 'go')]);
    // After its exec the shell leaves a sleep behind and waits on a FIFO until the test lets it exit.
    writeFileSync(join(dir, 'cmd'), `sleep 600 & echo $! > ${dir}/leftover; read line < ${dir}/go`);
    const agentProc = spawn('python3', [SLOW_EXEC_AGENT, dir, JSON.stringify(CLAUDE_MARKERS)], {
      detached: true,
      stdio: 'ignore',
      env: cleanEnv(),
    });
    trackGroup(agentProc.pid!);
    const agentPid = Number(await readyFile(dir, 'agent'));
    expect(agentPid).toBe(agentProc.pid);
    writeFileSync(join(dir, 'fork'), '');
    const shellPid = Number(await readyFile(dir, 'child'));
    trackGroup(shellPid);
    const service = harness.running.service;
    // Before its exec the shell bears the agent's name, argv and environment: a copy of its agent, which
    // is the agent's tool call from first sight, never an agent of its own (issue 51).
    const forked = await waitFor('the forked shell seen', () =>
      service.snapshot().groups.find((g) => g.pgid === shellPid),
    );
    expect(forked.containsAgent).toBe(false);
    expect(forked.agent).toEqual({ name: 'claude-code', pid: agentPid });
    writeFileSync(join(dir, 'exec'), '');
    const leftoverPid = Number(await readyFile(dir, 'leftover'));
    const group = await waitFor('the tool call classified again after its exec, with its child', () =>
      service
        .snapshot()
        .groups.find(
          (g) => g.pgid === shellPid && !g.containsAgent && g.processes.some((p) => p.pid === leftoverPid),
        ),
    );
    expect(group.agent).toEqual({ name: 'claude-code', pid: agentPid });
    expect(group.processes.map((p) => p.pid).sort()).toEqual([shellPid, leftoverPid].sort());
    expect(
      service
        .snapshot()
        .groups.filter((g) => g.containsAgent)
        .map((g) => g.pgid),
    ).toEqual([agentPid]);
    writeFileSync(join(dir, 'go'), 'exit\n');
    await readyFile(dir, 'tool-call-exited');
    const leftover = await waitFor('the leftover flagged orphan', () =>
      service.snapshot().groups.find((g) => g.pgid === shellPid && g.flags.includes('orphan')),
    );
    expect(leftover.id).toBe(group.id);
    expect(group.id).toBe(forked.id);
    expect(leftover.agent).toEqual({ name: 'claude-code', pid: agentPid });
  });
});
