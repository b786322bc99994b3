import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ListeningPortReader, readListeningPorts } from '../../main/core/sampling/linux/listening-ports';
import { readCwds } from '../../main/core/sampling/linux/proc-cwd';
import {
  decodeAddress,
  parseInodeColumn,
  parseListeningSockets,
  parseSocketTable,
} from '../../main/core/sampling/linux/socket-table';
import { removeDir, spawnGroup } from '../support/spawned-groups';
import { freePort } from './live-support';

// Lines as the kernel prints them (captured on this machine, little-endian x86-64).
const TCP = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000:07E8 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 115 1 00000000d1e9fbfc 100 0 0 10 0
   1: 0100007F:829B 0100007F:8D70 06 00000000:00000000 03:00000000 00000000     0        0 0 3 00000000e7ef4a90
   2: 0100007F:0BB8 0100007F:D2F0 01 00000000:00000000 00:00000000 00000000     0        0 4242 1 0000000011111111 20 4 0 10 -1
`;
const TCP6 = `  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000001000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 777 1 0000000000000000 100 0 0 10 0
   1: 0000000000000000FFFF00000100007F:0BB8 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 778 1 0000000000000000 100 0 0 10 0
`;
const UDP = `   sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops
  100: 00000000:14E9 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 900 2 0000000000000000 0
  101: 0100007F:9C40 0100007F:0035 01 00000000:00000000 00:00000000 00000000     0        0 901 2 0000000000000000 0
`;

describe('socket tables (proc_net_tcp(5))', () => {
  it('keeps TCP listeners and unconnected UDP sockets, by inode, with their addresses', () => {
    expect([...parseListeningSockets(TCP, 'tcp', true)]).toEqual([
      [115, { protocol: 'tcp', address: '0.0.0.0', port: 2024 }],
    ]);
    expect([...parseListeningSockets(TCP6, 'tcp6', true)]).toEqual([
      [777, { protocol: 'tcp6', address: '::1', port: 8080 }],
      [778, { protocol: 'tcp6', address: '::ffff:127.0.0.1', port: 3000 }],
    ]);
    expect([...parseListeningSockets(UDP, 'udp', true)]).toEqual([
      [900, { protocol: 'udp', address: '0.0.0.0', port: 5353 }],
    ]);
  });

  it('names the connected sockets apart: they will not listen, so they need no second look', () => {
    // Line 1 is a TIME_WAIT with no inode (0): no socket holds it.
    expect([...parseSocketTable(TCP, 'tcp', true).connected]).toEqual([4242]);
    expect([...parseSocketTable(UDP, 'udp', true).connected]).toEqual([901]);
  });

  it('reads the Inode column of /proc/net/unix and /proc/net/netlink by its header', () => {
    const unix = `Num       RefCount Protocol Flags    Type St Inode Path
00000000824bf972: 00000003 00000000 00000000 0001 03 122101
00000000478322c4: 00000002 00000000 00010000 0001 01 125496 /run/dbus/system_bus_socket
`;
    const netlink = `sk               Eth Pid        Groups   Rmem     Wmem     Dump  Locks    Drops    Inode
00000000370556f7 0   0          00000000 0        0        0     2        0        4
`;
    expect([...parseInodeColumn(unix)]).toEqual([122101, 125496]);
    expect([...parseInodeColumn(netlink)]).toEqual([4]);
    expect(parseInodeColumn('no header here\n1 2 3\n').size).toBe(0);
  });

  it('skips what is not a table line, and decodes addresses by byte order', () => {
    expect(parseListeningSockets('garbage\n\n  0: zz:zz 0A\n', 'tcp', true).size).toBe(0);
    expect(decodeAddress('0100007F', true)).toBe('127.0.0.1');
    expect(decodeAddress('7F000001', false)).toBe('127.0.0.1');
    expect(decodeAddress('000080FE00000000FF0A0B0C0D0E0F10', true)).toBe('fe80::c0b:aff:100f:e0d');
    expect(decodeAddress('00000000000000000000000000000000', true)).toBe('::');
    expect(decodeAddress('B80D0120000000000000000001000000', true)).toBe('2001:db8::1');
    expect(decodeAddress('xyz', true)).toBeNull();
  });
});

describe('Linux readers for cwd and listening ports, on real processes', () => {
  it('reads the cwd and the TCP, TCP6 and UDP6 listeners of just the pids asked for', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'corral-cwd-')));
    try {
      const [tcp, udp] = [await freePort(), await freePort()];
      const script = [
        'import socket, os, time',
        `t = socket.socket(socket.AF_INET6); t.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); t.bind(("::1", ${tcp})); t.listen()`,
        `t4 = socket.socket(); t4.bind(("127.0.0.1", ${tcp})); t4.listen()`,
        `u = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM); u.bind(("::", ${udp}))`,
        `c = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); c.connect(("127.0.0.1", ${udp}))`,
        'open(os.environ["DIR"] + "/ready", "w").write("ok\\n")',
        'time.sleep(600)',
      ].join('\n');
      const g = spawnGroup(`cd ${dir} && exec python3 -c '${script}'`);
      await g.ready('ready');
      const ports = readListeningPorts([g.pid, 999_999_999]);
      expect(ports.get(g.pid)).toEqual(
        [
          { protocol: 'tcp', address: '127.0.0.1', port: tcp },
          { protocol: 'tcp6', address: '::1', port: tcp },
          { protocol: 'udp6', address: '::', port: udp },
        ].sort((a, b) => a.port - b.port || a.protocol.localeCompare(b.protocol)),
      );
      expect(ports.has(999_999_999)).toBe(false);
      expect(readCwds([g.pid, 999_999_999])).toEqual(
        new Map<number, string | null>([
          [g.pid, dir],
          [999_999_999, null],
        ]),
      );
      removeDir(g.dir);
    } finally {
      removeDir(dir);
    }
  });

  it("matches a process in another network namespace against that namespace's own tables", async () => {
    const port = await freePort();
    const g = spawnGroup(
      `exec unshare --net sh -c 'ip link set lo up 2>/dev/null; exec python3 -c "import socket,os,time; s=socket.socket(); s.bind((\\"127.0.0.1\\", ${port})); s.listen(); open(os.environ[\\"DIR\\"]+\\"/ready\\",\\"w\\").write(\\"ok\\\\n\\"); time.sleep(600)"'`,
    );
    await g.ready('ready');
    expect(readListeningPorts([g.pid]).get(g.pid)).toEqual([{ protocol: 'tcp', address: '127.0.0.1', port }]);
    removeDir(g.dir);
  });

  it('reads the socket tables again when a new socket appears, and a late listen() once they are old', async () => {
    const [first, second, late] = [await freePort(), await freePort(), await freePort()];
    const script = [
      'import socket, os, time',
      'd = os.environ["DIR"]',
      'def wait(name):',
      '    while not os.path.exists(d + "/" + name): time.sleep(0.02)',
      `a = socket.socket(); a.bind(("127.0.0.1", ${first})); a.listen()`,
      `l = socket.socket(); l.bind(("127.0.0.1", ${late}))`,
      'open(d + "/one", "w").write("ok\\n")',
      'wait("go")',
      `b = socket.socket(); b.bind(("127.0.0.1", ${second})); b.listen()`,
      'open(d + "/two", "w").write("ok\\n")',
      'wait("listen")',
      'l.listen()',
      'open(d + "/three", "w").write("ok\\n")',
      'time.sleep(600)',
    ].join('\n');
    const { g, ports, advance } = pythonWithClockedReader(script);
    await g.ready('one');
    expect(ports()).toEqual([first]);
    writeFileSync(join(g.dir, 'go'), '');
    await g.ready('two');
    expect(ports()).toEqual([first, second].sort((x, y) => x - y)); // a new inode: read again at once
    writeFileSync(join(g.dir, 'listen'), '');
    await g.ready('three');
    expect(ports()).toEqual([first, second].sort((x, y) => x - y)); // same inodes, tables still fresh
    advance(5001);
    expect(ports()).toEqual([first, second, late].sort((x, y) => x - y));
    removeDir(g.dir);
  });

  it('trusts what it read about listeners and Unix sockets for a minute: no table is read again sooner', async () => {
    const port = await freePort();
    const script = [
      'import socket, os, time',
      'd = os.environ["DIR"]',
      `a = socket.socket(); a.bind(("127.0.0.1", ${port})); a.listen()`,
      'u, v = socket.socketpair()',
      'open(d + "/one", "w").write("ok\\n")',
      'while not os.path.exists(d + "/go"): time.sleep(0.02)',
      // A listener that stops listening but stays open: only a new read of the tables can tell.
      'a.shutdown(socket.SHUT_RDWR)',
      'open(d + "/two", "w").write("ok\\n")',
      'time.sleep(600)',
    ].join('\n');
    const { g, ports, advance } = pythonWithClockedReader(script);
    await g.ready('one');
    expect(ports()).toEqual([port]);
    writeFileSync(join(g.dir, 'go'), '');
    await g.ready('two');
    expect(readListeningPorts([g.pid]).get(g.pid)).toEqual([]); // what a fresh read says now
    advance(30_000);
    expect(ports()).toEqual([port]); // the Unix pair and the listener are settled: the tables were not read
    advance(30_001);
    expect(ports()).toEqual([]);
    removeDir(g.dir);
  });
});

/** A python3 fixture running `script`, and a port reader (5 s for unsettled sockets) on a clock the test moves. */
function pythonWithClockedReader(script: string) {
  const g = spawnGroup(`exec python3 -c '${script}'`);
  let now = 0;
  const reader = new ListeningPortReader('/proc', 5000, () => now);
  const ports = (): number[] =>
    reader
      .read([g.pid])
      .get(g.pid)!
      .map((p) => p.port);
  return { g, ports, advance: (ms: number) => (now += ms) };
}
