import { existsSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeAgent } from '../support/fake-agent';
import { readProcStat } from '../support/proc';
import { startHarness, type Harness } from '../support/service-harness';
import { removeDir } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';

// A stdio MCP server that, like the ones claude-code#1935 reports, does not exit when its agent's end of
// stdin closes. Its file name says what it is (`mcp-server-weather`), as npx's packages do.
const SERVER = `
import { renameSync, writeFileSync } from 'node:fs';
process.stdin.on('end', () => {});
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

describe('an MCP server generation left after its agent restarted, with real processes', () => {
  it("the old generation's server, reparented, is an orphan that names the newer one; the newer one is the agent's", async () => {
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'corral-agent-home-')));
    dirs.push(home);
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
