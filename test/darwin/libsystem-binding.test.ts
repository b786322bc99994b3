import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DarwinSampler } from '../../main/core/sampling/darwin/darwin-sampler';
import { type LibSystem, loadLibSystem } from '../../main/core/sampling/darwin/libsystem';
import { ThreadedPoll } from '../../main/core/os/threaded-poll';

// The real koffi bindings, pointed at a Linux library that has libSystem's signatures (see the C file).
const source = fileURLToPath(new URL('../fixtures/darwin/fake-libsystem.c', import.meta.url));
let dir: string;
let lib: LibSystem;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'corral-fake-libsystem-'));
  const so = join(dir, 'libfakesystem.so');
  execFileSync('gcc', ['-shared', '-fPIC', '-O1', '-Wall', '-Werror', '-o', so, source]);
  lib = loadLibSystem(so);
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('loadLibSystem bindings through koffi', () => {
  it('marshals each call as the C signatures declare', () => {
    const pids = new Int32Array(8);
    expect(lib.procListAllPids(pids)).toBe(4);
    expect([...pids.subarray(0, 4)]).toEqual([4242, 4343, 4444, 4545]);

    expect(lib.procListChildPids(1, pids)).toBe(1);
    expect(pids[0]).toBe(4242);

    const info = Buffer.alloc(232);
    expect(lib.procPidInfo(4242, 2, 0, info)).toBe(232);
    expect(info.readUInt32LE(12)).toBe(4242);
    expect(lib.procPidInfo(4343, 2, 0, info)).toBe(0);
    expect(lib.errno()).toBe(3); // ESRCH

    const argmax = Buffer.alloc(4);
    expect(lib.sysctl(Int32Array.of(1, 8), argmax)).toBe(4);
    expect(argmax.readInt32LE(0)).toBe(1048576);
    expect(lib.sysctl(Int32Array.of(1, 49, 4343), Buffer.alloc(64))).toBe(-1);
    expect(lib.errno()).toBe(22); // EINVAL

    // sysctl_procargsx: more than ARG_MAX after the argc int is refused; exactly ARG_MAX is not.
    expect(lib.sysctl(Int32Array.of(1, 49, 4242), Buffer.alloc(1048576 + 64 * 1024))).toBe(-1);
    expect(lib.errno()).toBe(22);
    expect(lib.sysctl(Int32Array.of(1, 49, 4242), Buffer.alloc(1048576))).toBeGreaterThan(4);

    expect(lib.procPidInfo(4444, 2, 0, info)).toBe(0);
    expect(lib.errno()).toBe(1); // EPERM: root's process
    expect(lib.procPidInfo(4444, 13, 0, info.subarray(0, 64))).toBe(64);
    expect(lib.procPidInfo(4545, 3, 0, info.subarray(0, 136))).toBe(0);
    expect(lib.errno()).toBe(3); // a zombie needs arg 1
    expect(lib.procPidInfo(4545, 3, 1, info.subarray(0, 136))).toBe(136);

    const cwd = Buffer.alloc(2352);
    expect(lib.procPidInfo(4242, 9, 0, cwd)).toBe(2352);
    expect(cwd.toString('latin1', 152, 166)).toBe('/Users/me/shop');
    expect(lib.procPidInfo(4444, 9, 0, cwd)).toBe(0);
    expect(lib.errno()).toBe(1); // EPERM
    const fds = Buffer.alloc(16);
    expect(lib.procPidInfo(4242, 1, 0, fds)).toBe(16); // two of three fit
    expect(fds.readInt32LE(8)).toBe(3);
    const socket = Buffer.alloc(792);
    expect(lib.procPidFdInfo(4242, 3, 3, socket)).toBe(792);
    expect(socket.readInt32LE(256)).toBe(2); // soi_kind SOCKINFO_TCP
    expect(lib.procPidFdInfo(4242, 0, 3, socket)).toBe(0);
    expect(lib.errno()).toBe(38); // ENOTSOCK, as macOS numbers it
    expect(lib.procPidFdInfo(4242, 9, 3, socket)).toBe(0);
    expect(lib.errno()).toBe(9); // EBADF
    expect(lib.procPidFdInfo(4242, 3, 3, socket.subarray(0, 791))).toBe(0);
    expect(lib.errno()).toBe(12); // ENOMEM

    const rusage = Buffer.alloc(304);
    expect(lib.procPidRusage(4242, 4, rusage)).toBe(0);
    expect(Number(rusage.readBigUInt64LE(72))).toBe(180000 * 1024);
    expect(lib.procPidRusage(4444, 4, rusage)).toBe(-1);
    expect(lib.errno()).toBe(1);

    const kq = lib.kqueue();
    expect(kq).toBe(5);
    const changes = Buffer.alloc(64);
    for (const [i, pid] of [4242, 4545].entries()) {
      changes.writeBigUInt64LE(BigInt(pid), i * 32);
      changes.writeInt16LE(-5, i * 32 + 8); // EVFILT_PROC
      changes.writeUInt16LE(0x1 | 0x40, i * 32 + 10); // EV_ADD | EV_RECEIPT
      changes.writeUInt32LE(0x80000000, i * 32 + 12); // NOTE_EXIT
    }
    const receipts = Buffer.alloc(64);
    expect(lib.kevent(kq, changes, 2, receipts, 2)).toBe(2);
    expect(receipts.readUInt16LE(10)).toBe(0x4000);
    expect(receipts.readBigInt64LE(16)).toBe(0n);
    expect(receipts.readBigUInt64LE(32)).toBe(4545n);
    expect(receipts.readBigInt64LE(48)).toBe(3n); // ESRCH: a zombie cannot be attached

    const hz = Buffer.alloc(8);
    expect(lib.sysctlByName('hw.tbfrequency', hz)).toBe(8);
    expect(hz.readBigUInt64LE(0)).toBe(24_000_000n);

    expect(lib.getsid(4242)).toBe(4000);
    expect(lib.getsid(4343)).toBe(-1);
    expect(lib.devname(0x10000001)).toBe('ttys001');
    expect(lib.devname(7)).toBeNull();
    expect(lib.timebase()).toEqual({ numer: 125, denom: 3 });
  });

  it('lets DarwinSampler read the cwd and listening ports laid out by the C compiler', () => {
    const sampler = new DarwinSampler({ markerKeys: new Set() }, lib);
    expect(sampler.readCwd([4242, 4343, 4444])).toEqual(
      new Map([
        [4242, '/Users/me/shop'],
        [4343, null],
        [4444, null],
      ]),
    );
    expect(sampler.listeningPorts([4242, 4343, 4444])).toEqual(
      new Map([[4242, [{ protocol: 'tcp', address: '127.0.0.1', port: 3000 }]]]),
    );
  });

  it('lets DarwinSampler read a whole table, skipping the pid that vanished', () => {
    const sampler = new DarwinSampler({ markerKeys: new Set(['CLAUDECODE']) }, lib);
    const records = sampler.sampleAll();
    expect(records.map((r) => r.pid)).toEqual([4242, 4444, 4545]);
    expect(records[1]).toMatchObject({
      uid: 0,
      name: 'WindowServer',
      cpuTimeMs: null,
      rssBytes: null,
      argv: [],
    });
    expect(records[1]).not.toHaveProperty('footprintBytes');
    expect(records[2]).toMatchObject({ state: 'Z', sid: 4545, ppid: 4242, cpuTimeMs: null });
    const [record] = records;
    expect(record!.cpuTimeMs).toBeCloseTo(183_050, 6);
    expect({ ...record, cpuTimeMs: 0 }).toEqual({
      pid: 4242,
      ppid: 1,
      pgid: 4000,
      sid: 4000,
      uid: 501,
      state: 'R',
      startKey: 1474794900250000,
      startedAt: 1474794900250,
      cpuTimeMs: 0,
      childCpuTimeMs: 0,
      rssBytes: 266108 * 1024,
      footprintBytes: 180000 * 1024,
      name: 'Code Helper (Renderer)',
      argv: ['sleep', '1000', 'caf\\xe9'],
      tty: 'ttys001',
      markers: { CLAUDECODE: '1' },
      environReadable: true,
    });
  });

  it('waits in poll on a worker thread through the pipe, poll, read and write bindings (POSIX calls, real here)', async () => {
    const ends = lib.pipe();
    const watched = lib.pipe();
    expect(ends).not.toBeNull();
    expect(watched).not.toBeNull();
    const [watchedRead, watchedWrite] = watched!;
    const ready: number[][] = [];
    let woke: (() => void) | null = null;
    const poll = new ThreadedPoll(
      lib,
      { readFd: ends![0], writeFd: ends![1] },
      () => (ready.length === 0 ? [watchedRead] : []),
      (fds) => {
        ready.push(fds);
        woke?.();
      },
      (reason) => {
        throw new Error(reason);
      },
    );
    poll.changed();
    expect(poll.waiting).toBe(true);
    // The set changed while the worker waits: it is woken through the pipe and waits again.
    poll.changed();
    const readable = new Promise<void>((resolve) => (woke = resolve));
    expect(lib.write(watchedWrite, Buffer.from('x'), 1)).toBe(1);
    await readable;
    expect(ready).toEqual([[watchedRead]]);
    expect(poll.waiting).toBe(false);
    poll.close();
    await poll.whenClosed();
    const byte = Buffer.alloc(1);
    expect(lib.read(watchedRead, byte, 1)).toBe(1);
    expect(byte.toString()).toBe('x');
    // The waker's ends were closed with the poll: a write to its write end now fails (EBADF).
    expect(lib.write(ends![1], byte, 1)).toBe(-1);
    expect(lib.errno()).toBe(9);
    lib.close(watchedRead);
    lib.close(watchedWrite);
  });
});
