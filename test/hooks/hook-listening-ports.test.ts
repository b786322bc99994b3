import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { listeningTcpPorts } from '../../main/core/sampling/linux/listening-ports';
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

describe.runIf(process.platform === 'linux')("the hook's listening ports", () => {
  it("are the TCP ports a leftover listens on, read by the sampler's one /proc/net parser", async () => {
    const child = spawn(process.execPath, ['-e', SERVER], {
      detached: true,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: cleanEnv({}),
    });
    trackGroup(child.pid!);
    const line = await new Promise<string>((resolve) =>
      createInterface({ input: child.stdout! }).once('line', resolve),
    );
    const { tcp, udp } = JSON.parse(line) as { tcp: number; udp: number };
    const ports = listeningTcpPorts([child.pid!, process.pid]);
    expect(ports.get(child.pid!)).toEqual([tcp]);
    expect(ports.get(child.pid!)).not.toContain(udp === tcp ? -1 : udp);
    expect(ports.has(process.pid)).toBe(false);
  });
});
