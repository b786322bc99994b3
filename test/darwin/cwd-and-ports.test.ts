import { beforeEach, describe, expect, it } from 'vitest';
import { DarwinSampler } from '../../main/core/sampling/darwin/darwin-sampler';
import {
  decodeCwd,
  decodeListeningSocket,
  decodeSocketFds,
} from '../../main/core/sampling/darwin/proc-info-decoders';
import {
  IN4_LOOPBACK,
  IN6_ANY,
  IN6_LOOPBACK,
  bsdInfo,
  type BsdInfoFields,
  fdList,
  shortBsdInfo,
  socketFdInfo,
  type SocketFields,
  vnodePathInfo,
  processInfos,
} from './darwin-buffers';
import { type FakeFd, FakeLibSystem } from './fake-libsystem';
import { EBADF, ENOMEM, ENOTSOCK, EPERM, ESRCH } from './xnu-numbers';

// Buffers are laid out field by field as xnu bsd/sys/proc_info.h declares them (darwin-buffers.ts),
// apart from the offsets the decoders use; the stand-in refuses as bsd/kern/proc_info.c does.
const SOCK_STREAM = 1;
const SOCK_DGRAM = 2;
const AF_INET = 2;
const AF_INET6 = 30;
const IPPROTO_TCP = 6;
const IPPROTO_UDP = 17;
const SOCKINFO_IN = 1;
const SOCKINFO_TCP = 2;
const SOCKINFO_UN = 3;
const TSI_S_LISTEN = 1;
const TSI_S_ESTABLISHED = 4;

const tcp4 = (port: number, state = TSI_S_LISTEN): SocketFields => ({
  kind: SOCKINFO_TCP,
  family: AF_INET,
  type: SOCK_STREAM,
  protocol: IPPROTO_TCP,
  vflag: 1,
  localPort: port,
  localAddress: IN4_LOOPBACK,
  tcpState: state,
});

describe('struct sizes from the xnu headers', () => {
  it('proc_vnodepathinfo is 2352 bytes and socket_fdinfo 792, as PROC_PID*_SIZE', () => {
    expect(vnodePathInfo('/x').length).toBe(2352);
    expect(socketFdInfo(tcp4(1)).length).toBe(792);
    expect(fdList([{ fd: 3, type: 2 }]).length).toBe(8);
  });
});

describe('decodeCwd (pvi_cdir.vip_path)', () => {
  it('reads the current directory, not the root directory after it', () => {
    expect(decodeCwd(vnodePathInfo('/Users/me/shop', '/'))).toBe('/Users/me/shop');
  });
  it('a path of MAXPATHLEN - 1 bytes, NUL-terminated by the kernel', () => {
    const long = `/${'a'.repeat(1022)}`;
    expect(decodeCwd(vnodePathInfo(long))).toBe(long);
  });
  it('UTF-8 names as Node decodes a readlink', () => {
    expect(decodeCwd(vnodePathInfo('/Users/me/café'))).toBe('/Users/me/café');
  });
  it('no directory (zeroed) or a short buffer: null', () => {
    expect(decodeCwd(vnodePathInfo(''))).toBeNull();
    expect(decodeCwd(vnodePathInfo('/x').subarray(0, 2351))).toBeNull();
  });
});

describe('decodeSocketFds (struct proc_fdinfo list)', () => {
  it('keeps only PROX_FDTYPE_SOCKET entries, within the bytes written', () => {
    const buf = Buffer.concat([
      fdList([
        { fd: 0, type: 1 },
        { fd: 3, type: 2 },
        { fd: 4, type: 6 },
        { fd: 9, type: 2 },
      ]),
      Buffer.alloc(64),
    ]);
    expect(decodeSocketFds(buf, 32)).toEqual([3, 9]);
    expect(decodeSocketFds(buf, 16)).toEqual([3]);
    expect(decodeSocketFds(buf, 15)).toEqual([]);
  });
});

describe('decodeListeningSocket (struct socket_fdinfo)', () => {
  const cases: [string, SocketFields, ReturnType<typeof decodeListeningSocket>][] = [
    ['TCP listening on 127.0.0.1:3000', tcp4(3000), { protocol: 'tcp', address: '127.0.0.1', port: 3000 }],
    ['TCP established: not a listener', tcp4(3000, TSI_S_ESTABLISHED), null],
    [
      'dual-stack TCP on :: (INI_IPV4 | INI_IPV6) is tcp6',
      { ...tcp4(8080), family: AF_INET6, vflag: 3, localAddress: IN6_ANY },
      { protocol: 'tcp6', address: '::', port: 8080 },
    ],
    [
      'IPv6-only TCP on ::1',
      { ...tcp4(5173), family: AF_INET6, vflag: 2, localAddress: IN6_LOOPBACK },
      { protocol: 'tcp6', address: '::1', port: 5173 },
    ],
    [
      'a port above 255 and below 256 show byte order: 65280 and 255',
      tcp4(65280),
      { protocol: 'tcp', address: '127.0.0.1', port: 65280 },
    ],
    ['port 255', tcp4(255), { protocol: 'tcp', address: '127.0.0.1', port: 255 }],
    [
      'UDP bound, no foreign port: listening',
      { ...tcp4(5353), kind: SOCKINFO_IN, type: SOCK_DGRAM, protocol: IPPROTO_UDP, tcpState: undefined },
      { protocol: 'udp', address: '127.0.0.1', port: 5353 },
    ],
    [
      'UDP6 bound on ::',
      {
        kind: SOCKINFO_IN,
        family: AF_INET6,
        type: SOCK_DGRAM,
        protocol: IPPROTO_UDP,
        vflag: 3,
        localPort: 41234,
        localAddress: IN6_ANY,
      },
      { protocol: 'udp6', address: '::', port: 41234 },
    ],
    [
      'UDP connected (foreign port set): not listening',
      { ...tcp4(5353), kind: SOCKINFO_IN, type: SOCK_DGRAM, protocol: IPPROTO_UDP, foreignPort: 53 },
      null,
    ],
    [
      'UDP not bound (port 0)',
      { ...tcp4(0), kind: SOCKINFO_IN, type: SOCK_DGRAM, protocol: IPPROTO_UDP },
      null,
    ],
    [
      'a raw IP socket (SOCKINFO_IN, SOCK_RAW): not a listener',
      { ...tcp4(0), kind: SOCKINFO_IN, type: 3, protocol: 1 },
      null,
    ],
    [
      'a Unix-domain socket',
      { ...tcp4(0), kind: SOCKINFO_UN, family: 1, vflag: 0, localAddress: IN6_ANY },
      null,
    ],
  ];
  it.each(cases)('%s', (_name, fields, expected) => {
    expect(decodeListeningSocket(socketFdInfo(fields))).toEqual(expected);
  });
  it('a short buffer: null', () => {
    expect(decodeListeningSocket(socketFdInfo(tcp4(3000)).subarray(0, 791))).toBeNull();
  });
});

describe('the stand-in refuses what proc_info.c refuses for these flavors', () => {
  let lib: FakeLibSystem;
  beforeEach(() => {
    lib = table();
  });

  it('PROC_PIDVNODEPATHINFO: ENOMEM under 2352 bytes, ESRCH gone or zombie, EPERM another user’s (proc_pidinfo)', () => {
    expect(lib.procPidInfo(10, 9, 0, Buffer.alloc(2351))).toBe(0);
    expect(lib.errno()).toBe(ENOMEM);
    expect(lib.procPidInfo(99, 9, 0, Buffer.alloc(2352))).toBe(0);
    expect(lib.errno()).toBe(ESRCH);
    expect(lib.procPidInfo(30, 9, 1, Buffer.alloc(2352))).toBe(0);
    expect(lib.errno()).toBe(ESRCH);
    expect(lib.procPidInfo(20, 9, 0, Buffer.alloc(2352))).toBe(0);
    expect(lib.errno()).toBe(EPERM);
    lib.callerUid = 0;
    expect(lib.procPidInfo(20, 9, 0, Buffer.alloc(2352))).toBe(2352);
  });

  it('PROC_PIDLISTFDS: room for one entry or ENOMEM, then as many as fit (proc_pidfdlist)', () => {
    expect(lib.procPidInfo(10, 1, 0, Buffer.alloc(7))).toBe(0);
    expect(lib.errno()).toBe(ENOMEM);
    expect(lib.procPidInfo(10, 1, 0, Buffer.alloc(8))).toBe(8);
    expect(lib.procPidInfo(10, 1, 0, Buffer.alloc(1024))).toBe(3 * 8);
    expect(lib.procPidInfo(20, 1, 0, Buffer.alloc(1024))).toBe(0);
    expect(lib.errno()).toBe(EPERM);
  });

  it('proc_pidfdinfo: ENOMEM, ESRCH, EPERM, EBADF for a closed fd, ENOTSOCK for a file (proc_pidfdinfo, fp_get_ftype)', () => {
    const out = Buffer.alloc(792);
    expect(lib.procPidFdInfo(10, 3, 3, Buffer.alloc(791))).toBe(0);
    expect(lib.errno()).toBe(ENOMEM);
    expect(lib.procPidFdInfo(99, 3, 3, out)).toBe(0);
    expect(lib.errno()).toBe(ESRCH);
    expect(lib.procPidFdInfo(30, 3, 3, out)).toBe(0);
    expect(lib.errno()).toBe(ESRCH);
    expect(lib.procPidFdInfo(20, 3, 3, out)).toBe(0);
    expect(lib.errno()).toBe(EPERM);
    expect(lib.procPidFdInfo(10, 7, 3, out)).toBe(0);
    expect(lib.errno()).toBe(EBADF);
    expect(lib.procPidFdInfo(10, 0, 3, out)).toBe(0);
    expect(lib.errno()).toBe(ENOTSOCK);
    expect(lib.procPidFdInfo(10, 3, 3, out)).toBe(792);
  });
});

describe('DarwinSampler.readCwd and listeningPorts', () => {
  it('reads the cwd of our own processes, null for a gone, zombie or another user’s', () => {
    const sampler = new DarwinSampler({ markerKeys: new Set() }, table());
    expect(sampler.readCwd([10, 20, 30, 99])).toEqual(
      new Map([
        [10, '/Users/me/shop'],
        [20, null],
        [30, null],
        [99, null],
      ]),
    );
  });

  it('as root, another user’s cwd too', () => {
    const lib = table();
    lib.callerUid = 0;
    expect(new DarwinSampler({ markerKeys: new Set() }, lib).readCwd([20]).get(20)).toBe('/');
  });

  it('lists only listening sockets, once each, sorted; refused pids are absent', () => {
    const lib = table();
    const sampler = new DarwinSampler({ markerKeys: new Set() }, lib);
    expect(sampler.listeningPorts([10, 20, 30, 99])).toEqual(
      new Map([
        [
          10,
          [
            { protocol: 'tcp', address: '127.0.0.1', port: 3000 },
            { protocol: 'udp6', address: '::', port: 5353 },
          ],
        ],
      ]),
    );
    // Only the socket descriptors were asked about, never the file on fd 0.
    expect(lib.calls.filter((c) => c.startsWith('proc_pidfdinfo(10,'))).toEqual([
      'proc_pidfdinfo(10, 3, 3)',
      'proc_pidfdinfo(10, 5, 3)',
    ]);
  });

  it('grows the descriptor list when the kernel filled it (proc_pidfdlist cuts it at the buffer)', () => {
    const lib = table();
    const fds: FakeFd[] = Array.from({ length: 600 }, (_, i) => ({ fd: i, type: 1 }));
    fds.push({ fd: 600, type: 2, socket: socketFdInfo(tcp4(4321)) });
    lib.processes.get(10)!.fds = fds;
    const ports = new DarwinSampler({ markerKeys: new Set() }, lib).listeningPorts([10]);
    expect(ports.get(10)).toEqual([{ protocol: 'tcp', address: '127.0.0.1', port: 4321 }]);
  });

  it('a process with no listener: an empty list', () => {
    const lib = table();
    lib.processes.get(10)!.fds = [{ fd: 0, type: 1 }];
    expect(new DarwinSampler({ markerKeys: new Set() }, lib).listeningPorts([10]).get(10)).toEqual([]);
  });
});

function put(lib: FakeLibSystem, fields: BsdInfoFields, extra: { cwd?: string; fds?: FakeFd[] } = {}) {
  lib.processes.set(fields.pid, {
    ...processInfos(fields, { residentBytes: 1 << 20, userTicks: 0, systemTicks: 0, runningThreads: 0 }),
    sid: fields.pgid,
    ...(extra.cwd === undefined ? {} : { vnodePaths: vnodePathInfo(extra.cwd, '') }),
    ...(extra.fds ? { fds: extra.fds } : {}),
  });
}

/** pid 10 our own dev server, 20 root's, 30 our own zombie. */
function table(): FakeLibSystem {
  const lib = new FakeLibSystem();
  const own = { status: 2, pid: 10, ppid: 1, uid: 501, comm: 'node', pgid: 10, startSec: 1, startUsec: 0 };
  put(lib, own, {
    cwd: '/Users/me/shop',
    fds: [
      { fd: 0, type: 1 },
      { fd: 3, type: 2, socket: socketFdInfo(tcp4(3000)) },
      {
        fd: 5,
        type: 2,
        socket: socketFdInfo({
          kind: SOCKINFO_IN,
          family: AF_INET6,
          type: SOCK_DGRAM,
          protocol: IPPROTO_UDP,
          vflag: 3,
          localPort: 5353,
          localAddress: IN6_ANY,
        }),
      },
    ],
  });
  put(
    lib,
    { ...own, pid: 20, uid: 0, comm: 'launchd', pgid: 20 },
    {
      cwd: '/',
      fds: [{ fd: 3, type: 2, socket: socketFdInfo(tcp4(80)) }],
    },
  );
  const zombie = { ...own, pid: 30, status: 5, comm: 'zsh' };
  lib.processes.set(30, { bsdInfo: bsdInfo(zombie), shortBsdInfo: shortBsdInfo(zombie), sid: 10 });
  return lib;
}
