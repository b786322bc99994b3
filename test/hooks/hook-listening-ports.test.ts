import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { listeningTcpPorts } from '../../main/core/sampling/linux/listening-ports';
import { readTcpListenerPorts } from '../../main/core/sampling/linux/tcp-listener-diag';
import { answerHook } from '../../main/hooks/hook-answer';
import { serviceHookContextFactory } from '../../main/hooks/service-hook-context';
import { cleanEnv, trackGroup } from '../support/spawned-groups';

// A process listening on TCP and bound on UDP: the hook names its TCP port only, each port once.
const SERVER = `
const net = require('node:net');
const dgram = require('node:dgram');
const udp = dgram.createSocket('udp4');
udp.bind(0, '127.0.0.1', () => {
  const tcp = net.createServer().listen(0, '127.0.0.1', () => {
    const tcp6 = net.createServer().listen(tcp.address().port, '::1', () =>
      console.log(JSON.stringify({ tcp: tcp.address().port, udp: udp.address().port })));
    tcp6.on('error', () => console.log(JSON.stringify({ tcp: tcp.address().port, udp: udp.address().port })));
  });
});
setInterval(() => {}, 1000);
`;

/** The server above, started by `argv` (the command runs node with the script last). */
async function startServer(
  argv: string[] = [],
  markers: Record<string, string> = {},
): Promise<{ pid: number; tcp: number; udp: number }> {
  const [command, ...args] = [...argv, process.execPath, '-e', SERVER];
  const child = spawn(command!, args, {
    detached: true,
    stdio: ['ignore', 'pipe', 'ignore'],
    env: cleanEnv(markers),
  });
  trackGroup(child.pid!);
  const line = await new Promise<string>((resolve) =>
    createInterface({ input: child.stdout! }).once('line', resolve),
  );
  return { pid: child.pid!, ...(JSON.parse(line) as { tcp: number; udp: number }) };
}

describe.runIf(process.platform === 'linux')("the hook's listening ports", () => {
  it("are the TCP ports a leftover listens on, read by the sampler's one /proc/net parser", async () => {
    const { pid, tcp, udp } = await startServer();
    const ports = listeningTcpPorts([pid, process.pid]);
    expect(ports.get(pid)).toEqual([tcp]);
    expect(ports.get(pid)).not.toContain(udp === tcp ? -1 : udp);
    expect(ports.has(process.pid)).toBe(false);
  });

  it('are the same from the sock_diag dump of listeners, which lists nothing but TCP listeners', async () => {
    const { pid, tcp } = await startServer();
    const listeners = readTcpListenerPorts();
    expect(listeners).not.toBeNull();
    const inodes = socketInodesOf(pid);
    const listed = inodes.filter((i) => listeners!.has(i));
    // The IPv4 listener, and the IPv6 one where the kernel has IPv6; never the UDP socket it holds too.
    expect(listed.length).toBeGreaterThanOrEqual(1);
    expect(listed.length).toBeLessThanOrEqual(2);
    expect(inodes.length).toBeGreaterThan(listed.length);
    expect(listed.every((i) => listeners!.get(i) === tcp)).toBe(true);
    let dumps = 0;
    const counted = (): Map<number, number> | null => (dumps++, readTcpListenerPorts());
    const ports = listeningTcpPorts([pid, process.pid], '/proc', counted);
    expect(ports).toEqual(listeningTcpPorts([pid, process.pid]));
    expect(ports.get(pid)).toEqual([tcp]);
    expect(dumps).toBe(1);
  });

  it('are named in the running service’s answer for a leftover that listens', async () => {
    const data = mkdtempSync(join(tmpdir(), 'corral-port-answer-'));
    try {
      const context = serviceHookContextFactory(data)!;
      const session = `port-answer-${process.pid}`;
      const body = (event: string): string =>
        JSON.stringify({
          session_id: session,
          tool_use_id: 'toolu_portanswer',
          tool_name: 'Bash',
          tool_input: { command: 'node server.js &' },
          hook_event_name: event,
          duration_ms: 5,
        });
      expect(answerHook('claude-code', 'PreToolUse', body('PreToolUse'), context())).toBe('');
      const markers = { CLAUDECODE: '1', CLAUDE_CODE_SESSION_ID: session };
      const { pid, tcp } = await startServer([], markers);
      const out = answerHook('claude-code', 'PostToolUse', body('PostToolUse'), context());
      expect(out).toContain(`- pid ${pid} (process group ${pid}, listening on port ${tcp}), command line:`);
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });

  it('of a process in another network namespace come from its own tables, not this namespace’s dump', async () => {
    const { pid, tcp } = await startServer(['unshare', '--net']);
    expect(readLinkOr(`/proc/${pid}/ns/net`)).not.toBe(readLinkOr('/proc/thread-self/ns/net'));
    let dumps = 0;
    const ports = listeningTcpPorts([pid], '/proc', () => (dumps++, readTcpListenerPorts()));
    expect(ports.get(pid)).toEqual([tcp]);
    expect(dumps).toBe(0);
  });
});

function socketInodesOf(pid: number): number[] {
  const inodes: number[] = [];
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    const m = /^socket:\[(\d+)\]$/.exec(readLinkOr(`/proc/${pid}/fd/${fd}`) ?? '');
    if (m) inodes.push(Number(m[1]));
  }
  return inodes;
}

function readLinkOr(path: string): string | null {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
}
