import { existsSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeAgent } from '../support/fake-agent';
import { readProcStat } from '../support/proc';
import { startHarness, type Harness } from '../support/service-harness';
import { removeDir } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';
import { psGroups } from './live-support';

// A server whose command line says nothing of MCP: only the agent's configuration can name it.
const SERVER = `
import { renameSync, writeFileSync } from 'node:fs';
process.stdin.resume();
setInterval(() => {}, 1 << 30);
writeFileSync(process.argv[2] + '.tmp', 'up');
renameSync(process.argv[2] + '.tmp', process.argv[2]);
`;

let harness: Harness | null = null;
const dirs: string[] = [];
afterEach(async () => {
  await harness?.stop();
  harness = null;
  dirs.splice(0).forEach(removeDir);
});

describe('MCP servers named by the agent’s MCP configuration, with real processes', () => {
  it('recognises the configured server by name while its agent lives, and flags it orphan once the agent is gone', async () => {
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'corral-agent-home-')));
    dirs.push(home);
    const script = join(home, 'weather-server.mjs');
    const ready = join(home, 'weather-ready');
    writeFileSync(script, SERVER);
    // Claude Code's user scope, where `claude mcp add -s user` writes it (observed with 2.1.197).
    writeFileSync(
      join(home, '.claude.json'),
      JSON.stringify({ mcpServers: { weather: { type: 'stdio', command: 'node', args: [script, ready] } } }),
    );
    harness = startHarness();
    const agent = await FakeAgent.start({ env: { HOME: home }, cwd: home });
    const server = await agent.startServer([process.execPath, script, ready]);
    await waitFor('the server up', () => existsSync(ready));

    // `corral ps`, one look.
    const groups = await psGroups();
    const own = groups.find((g) => g.processes.some((p) => p.pid === server))!;
    expect(own.agent).toEqual({ name: 'claude-code', pid: agent.pid });
    expect(own.processes.find((p) => p.pid === server)).toMatchObject({
      role: 'mcp-server',
      mcpServer: 'weather',
    });
    expect(own.processes.find((p) => p.pid === agent.pid)?.role).toBe('agent');

    // The running service: the same, then orphan once the agent is killed and the server adopted.
    const service = harness.running.service;
    const watched = () => service.snapshot().groups.find((g) => g.processes.some((p) => p.pid === server));
    await waitFor('the service names the server', () =>
      watched()?.processes.find((p) => p.pid === server && p.mcpServer === 'weather'),
    );
    process.kill(agent.pid, 'SIGKILL');
    const orphaned = await waitFor('the server flagged orphan', () => {
      const g = watched();
      return g?.flags.includes('orphan') ? g : undefined;
    });
    expect(orphaned.processes.find((p) => p.pid === server)).toMatchObject({
      role: 'mcp-server',
      mcpServer: 'weather',
    });
    expect(readProcStat(server)?.ppid).not.toBe(agent.pid);
  });
});
