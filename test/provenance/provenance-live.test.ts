import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FakeAgent, fakeToolUseId } from '../support/fake-agent';
import { groupMembers, readProcStat } from '../support/proc';
import { runCli } from '../support/run-cli';
import { removeDir } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';
import { CLI_ENV, freePort, gitWorkTree, psGroups, waitListening } from './live-support';

const SESSION_A = '0b7e6f2c-1111-4a5b-9c3d-aaaaaaaaaaaa';
const SESSION_B = '5d2c9e41-2222-4f6a-8b7c-bbbbbbbbbbbb';
const claudeMarkers = (session: string, extra: Record<string, string> = {}) => ({
  CLAUDECODE: '1',
  CLAUDE_CODE_ENTRYPOINT: 'cli',
  CLAUDE_CODE_SESSION_ID: session,
  AI_AGENT: 'claude-code_2-1-197_agent',
  ...extra,
});

describe('provenance of leftovers, with real processes', () => {
  it('tells apart two sessions leaking into the same list, and names each live agent', async () => {
    const config = realpathSync(mkdtempSync(join(tmpdir(), 'corral-claude-config-')));
    try {
      // A links its session by CLAUDE_PID (newer Claude Code); B only by its session file.
      const a = await FakeAgent.start({ markers: claudeMarkers(SESSION_A, { CLAUDE_PID: '$PID' }) });
      const b = await FakeAgent.start({
        markers: claudeMarkers(SESSION_B),
        env: { CLAUDE_CONFIG_DIR: config },
        sessionFile: true,
      });
      const callA = await a.toolCall('sleep 600 & echo started');
      const callB = await b.toolCall('sleep 600 & echo started');
      await callA.exited();
      await callB.exited();
      await waitFor('both wrappers gone', () => !readProcStat(callA.pid) && !readProcStat(callB.pid));

      const groups = await psGroups();
      const leftA = groups.find((g) => g.pgid === callA.pid)!;
      const leftB = groups.find((g) => g.pgid === callB.pid)!;
      expect(leftA.leaderAlive || leftB.leaderAlive).toBe(false);
      expect(leftA.session).toMatchObject({ id: SESSION_A, source: 'env', agentAlive: true });
      expect(leftB.session).toMatchObject({ id: SESSION_B, source: 'env', agentAlive: true });
      // The shells that linked them to their agents are gone: the session ids do it now.
      expect(leftA.agent).toEqual({ name: 'claude-code', pid: a.pid });
      expect(leftB.agent).toEqual({ name: 'claude-code', pid: b.pid });
      expect(leftA.processes.map((p) => p.role)).toEqual(['tool-call']);
      // Each agent's own group belongs to its session through the agent (lineage), not the environment.
      const ownB = groups.find((g) => g.pgid === b.pid)!;
      expect(ownB.session).toMatchObject({ id: SESSION_B, source: 'lineage', agentAlive: true });
      expect(ownB.processes.find((p) => p.pid === b.pid)?.role).toBe('agent');

      const onlyA = await psGroups(['--session', SESSION_A]);
      expect(onlyA.map((g) => g.pgid).sort()).toEqual([a.pid, callA.pid].sort());
      const byPrefix = await psGroups(['--session', SESSION_B.slice(0, 8)]);
      expect(byPrefix.map((g) => g.pgid).sort()).toEqual([b.pid, callB.pid].sort());
    } finally {
      removeDir(config);
    }
  });

  it('a leftover http.server from a tool call in a git work tree shows its cwd, project, port and tool call', async () => {
    const { root, sub } = gitWorkTree();
    const config = realpathSync(mkdtempSync(join(tmpdir(), 'corral-claude-config-')));
    try {
      const port = await freePort();
      const agent = await FakeAgent.start({
        markers: claudeMarkers(SESSION_A),
        env: { CLAUDE_CONFIG_DIR: config },
        cwd: sub,
        sessionFile: true,
        transcript: true,
      });
      const command = `python3 -m http.server ${port} --bind 127.0.0.1 >/dev/null 2>&1 & echo started`;
      const call = await agent.toolCall(command, { description: 'Start the dev server' });
      await call.closed();
      await waitListening(port);

      const groups = await psGroups(['--port', String(port)]);
      expect(groups).toHaveLength(1);
      const g = groups[0]!;
      expect(g.pgid).toBe(call.pid);
      const server = g.processes.find((p) => p.command.includes('http.server'))!;
      expect(server.cwd).toBe(sub);
      expect(server.ports).toEqual([{ protocol: 'tcp', address: '127.0.0.1', port }]);
      expect(server.role).toBe('tool-call');
      expect(g.ports).toEqual([{ protocol: 'tcp', address: '127.0.0.1', port }]);
      expect(g.session).toEqual({ id: SESSION_A, source: 'env', project: root, agentAlive: true });
      expect(g.toolCall).toMatchObject({
        id: fakeToolUseId(1),
        command,
        description: 'Start the dev server',
      });
      expect(g.toolCall!.startedAt).toBeLessThanOrEqual(server.startedAt + 2000);
    } finally {
      removeDir(root);
      removeDir(config);
    }
  });

  it('ps --port answers for a listener no agent started, and for none', async () => {
    const port = await freePort();
    const { spawnGroup } = await import('../support/spawned-groups');
    const plain = spawnGroup(`exec python3 -m http.server ${port} --bind 127.0.0.1`);
    await waitListening(port);
    const groups = await psGroups(['--port', String(port)]);
    expect(groups.map((g) => g.pgid)).toEqual([plain.pgid]);
    expect(groups[0]!.agent).toBeNull();
    expect(groups[0]!.session).toBeNull();
    // Nobody on a port: no groups, and kill's exit code for the same --port (3).
    const none = await runCli(['ps', '--json', '--port', String(await freePort())], { env: CLI_ENV });
    expect(none.code).toBe(3);
    expect((JSON.parse(none.stdout) as { groups: unknown[] }).groups).toEqual([]);
    expect(groupMembers(plain.pgid)).toHaveLength(1);
  });
});
