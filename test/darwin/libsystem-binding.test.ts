import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DarwinSampler } from '../../main/core/sampling/darwin/darwin-sampler';
import { type LibSystem, loadLibSystem } from '../../main/core/sampling/darwin/libsystem';

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
    expect(lib.procListAllPids(pids)).toBe(2);
    expect([...pids.subarray(0, 2)]).toEqual([4242, 4343]);

    expect(lib.procListChildPids(1, pids)).toBe(1);
    expect(pids[0]).toBe(4242);

    const info = Buffer.alloc(232);
    expect(lib.procPidInfo(4242, 2, 0, info)).toBe(232);
    expect(info.readUInt32LE(12)).toBe(4242);
    expect(lib.procPidInfo(4343, 2, 0, info)).toBe(0);
    expect(lib.errno()).toBe(3); // ESRCH

    const argmax = Buffer.alloc(4);
    expect(lib.sysctl(Int32Array.of(1, 8), argmax)).toBe(4);
    expect(argmax.readInt32LE(0)).toBe(262144);
    expect(lib.sysctl(Int32Array.of(1, 49, 4343), Buffer.alloc(64))).toBe(-1);
    expect(lib.errno()).toBe(22); // EINVAL

    expect(lib.getsid(4242)).toBe(4000);
    expect(lib.getsid(4343)).toBe(-1);
    expect(lib.devname(0x10000001)).toBe('ttys001');
    expect(lib.devname(7)).toBeNull();
    expect(lib.timebase()).toEqual({ numer: 125, denom: 3 });
  });

  it('lets DarwinSampler read a whole table, skipping the pid that vanished', () => {
    const sampler = new DarwinSampler({ markerKeys: new Set(['CLAUDECODE']) }, lib);
    const records = sampler.sampleAll();
    expect(records).toHaveLength(1);
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
      rssBytes: 266108 * 1024,
      name: 'Code Helper (Renderer)',
      argv: ['sleep', '1000', 'caf\\xe9'],
      tty: 'ttys001',
      markers: { CLAUDECODE: '1' },
      environReadable: true,
    });
  });
});
