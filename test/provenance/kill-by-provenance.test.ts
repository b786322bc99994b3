import { describe, expect, it } from 'vitest';
import type { TeardownResult } from '../../shared/model';
import { FakeAgent } from '../support/fake-agent';
import { groupMembers, isAlive, readProcStat } from '../support/proc';
import { runCli } from '../support/run-cli';
import { spawnGroup } from '../support/spawned-groups';
import { waitFor } from '../support/wait-for';
import { accepts, CLI_ENV, freePort, psGroups, waitListening } from './live-support';

interface KillByOutput {
  target: string;
  refused: string | null;
  skipped: Array<{ groupId: string; reason: string }>;
  results: TeardownResult[];
}

async function killBy(args: string[]): Promise<{ code: number; out: KillByOutput }> {
  const r = await runCli(['kill', ...args, '--json', '--grace-ms', '2000'], { env: CLI_ENV });
  return { code: r.code, out: JSON.parse(r.stdout) as KillByOutput };
}

const markers = (session: string) => ({
  CLAUDECODE: '1',
  CLAUDE_CODE_SESSION_ID: session,
  CLAUDE_PID: '$PID',
});

describe('corral kill --port and --session', () => {
  it('--port stops the agent leftover listening there, after a dry run that shows exactly it', async () => {
    const port = await freePort();
    const agent = await FakeAgent.start({ markers: markers('sess-port-0001') });
    const call = await agent.toolCall(
      `python3 -m http.server ${port} --bind 127.0.0.1 >/dev/null 2>&1 & sleep 600 >/dev/null 2>&1 & echo ok`,
    );
    await call.closed();
    await waitListening(port);
    const members = groupMembers(call.pid).map((m) => m.pid);
    expect(members).toHaveLength(2);

    const dry = await killBy(['--port', String(port), '--dry-run']);
    expect(dry.out.refused).toBeNull();
    expect(dry.out.results).toHaveLength(1);
    expect(dry.out.results[0]!.signals).toEqual([]);
    expect(dry.out.results[0]!.processes.map((p) => p.pid).sort()).toEqual(members.sort());
    expect(members.every(isAlive)).toBe(true);

    const real = await killBy(['--port', String(port)]);
    expect(real.code).toBe(0);
    expect(real.out.results.map((r) => r.pgid)).toEqual([call.pid]);
    expect(real.out.results[0]!.clean).toBe(true);
    expect(groupMembers(call.pid)).toEqual([]);
    expect(await accepts(port)).toBe(false);
    expect(isAlive(agent.pid)).toBe(true);
  });

  it('--port refuses a listener no agent started unless --any-owner, and a port nobody holds', async () => {
    const port = await freePort();
    const plain = spawnGroup(`exec python3 -m http.server ${port} --bind 127.0.0.1`);
    await waitListening(port);
    const refused = await killBy(['--port', String(port)]);
    expect(refused.code).toBe(3);
    expect(refused.out.refused).toContain('--any-owner');
    expect(refused.out.results).toEqual([]);
    expect(isAlive(plain.pid)).toBe(true);

    const nobody = await killBy(['--port', String(await freePort())]);
    expect(nobody.code).toBe(3);
    expect(nobody.out.refused).toContain('listening on port');

    const forced = await killBy(['--port', String(port), '--any-owner']);
    expect(forced.code).toBe(0);
    expect(forced.out.results.map((r) => r.pgid)).toEqual([plain.pgid]);
    await waitFor('plain server gone', () => groupMembers(plain.pgid).length === 0);
  });

  it('--port refuses bad input with a usage error', async () => {
    for (const bad of ['0', '65536', 'http', '-1']) {
      const r = await runCli(['kill', '--port', bad], { env: CLI_ENV });
      expect(r.code).toBe(2);
    }
    const both = await runCli(['kill', '--port', '3000', '--session', 'abc'], { env: CLI_ENV });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('one way');
  });

  it('--session stops every leftover of that session, one outcome per group, and leaves the agent and other sessions', async () => {
    const a = await FakeAgent.start({ markers: markers('sess-kill-aaaa') });
    const b = await FakeAgent.start({ markers: markers('sess-kill-bbbb') });
    const a1 = await a.toolCall('sleep 600 & echo ok');
    const a2 = await a.toolCall('sleep 600 & sleep 600 & echo ok');
    const b1 = await b.toolCall('sleep 600 & echo ok');
    for (const c of [a1, a2, b1]) await c.exited();
    await waitFor('wrappers gone', () => [a1, a2, b1].every((c) => readProcStat(c.pid) === null));

    const dry = await killBy(['--session', 'sess-kill-aaaa', '--dry-run']);
    expect(dry.out.results.map((r) => r.pgid).sort()).toEqual([a1.pid, a2.pid].sort());
    expect(dry.out.skipped.map((s) => s.reason)).toEqual(["the agent's own group"]);

    const done = await killBy(['--session', 'sess-kill-aaaa']);
    expect(done.code).toBe(0);
    expect(done.out.results.map((r) => r.pgid).sort()).toEqual([a1.pid, a2.pid].sort());
    expect(done.out.results.every((r) => r.clean && r.refused === null)).toBe(true);
    expect(groupMembers(a1.pid)).toEqual([]);
    expect(groupMembers(a2.pid)).toEqual([]);
    expect(isAlive(a.pid)).toBe(true);
    expect(groupMembers(b1.pid)).toHaveLength(1);

    const none = await killBy(['--session', 'sess-kill-cccc']);
    expect(none.code).toBe(3);
    const left = await psGroups(['--session', 'sess-kill-bbbb']);
    expect(left.map((g) => g.pgid).sort()).toEqual([b.pid, b1.pid].sort());
  });
});
