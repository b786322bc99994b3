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

describe('MCP servers named by the agent’s MCP configuration or their command line, with real processes', () => {
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

  it("a generation left after its agent restarted: the old server, reparented, is an orphan that names the newer one; the newer one is the agent's", async () => {
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'corral-agent-home-')));
    dirs.push(home);
    // Its file name says what it is (`mcp-server-weather`), as npx's packages do; like the servers
    // claude-code#1935 reports, it does not exit when its agent's end of stdin closes.
    const script = join(home, 'mcp-server-weather.mjs');
    writeFileSync(script, SERVER);
    // The running service remembers who started the server (lineage): the server carries no marker of
    // its own, so after its agent is gone only that memory ties it to the agent.
    harness = startHarness();
    const service = harness.running.service;
    const view = (pid: number) => {
      for (const g of service.snapshot().groups) {
        const p = g.processes.find((x) => x.pid === pid);
        if (p) return { p, g };
      }
      return undefined;
    };
    // The agent (a stand-in named claude, as Claude Code's process is) starts its server, then dies.
    const first = await FakeAgent.start({ env: { HOME: home }, cwd: home });
    const old = await first.startServer([process.execPath, script, join(home, 'old-ready')]);
    await waitFor('the old server up', () => existsSync(join(home, 'old-ready')));
    await waitFor(
      'the service names the old server',
      () => view(old)?.p.mcpServer === 'weather' || undefined,
    );
    process.kill(first.pid, 'SIGKILL');
    await waitFor('the old server an orphan', () => view(old)?.g.flags.includes('orphan') || undefined);
    // The agent again: a new generation of the same server.
    const second = await FakeAgent.start({ env: { HOME: home }, cwd: home });
    const fresh = await second.startServer([process.execPath, script, join(home, 'new-ready')]);
    await waitFor('the new server up', () => existsSync(join(home, 'new-ready')));

    const left = await waitFor('the old generation named as such', () =>
      view(old)?.p.serviceLeftover ? view(old) : undefined,
    );
    expect(left.g.flags).toContain('orphan');
    expect(left.p).toMatchObject({
      role: 'mcp-server',
      mcpServer: 'weather',
      serviceLeftover: `an older generation of MCP server weather: pid ${fresh} runs it now for claude-code (pid ${second.pid})`,
    });
    expect(readProcStat(old)?.ppid).not.toBe(first.pid);
    const now = view(fresh)!;
    expect(now.g.flags).not.toContain('orphan');
    expect(now.p.serviceLeftover).toBeUndefined();
    expect(now.p.role).toBe('mcp-server');
  });
});
