import { beforeEach, describe, expect, it } from 'vitest';
import { DarwinSampler } from '../../main/core/sampling/darwin/darwin-sampler';
import {
  bsdInfo,
  type BsdInfoFields,
  procArgs2,
  rusageInfoV4,
  shortBsdInfo,
  processInfos,
} from './darwin-buffers';
import { FakeLibSystem } from './fake-libsystem';

// The readings a review against xnu found wrong: each test failed with the sampler as it was.
const MARKERS = new Set(['CLAUDECODE']);
const SZOMB = 5;

let lib: FakeLibSystem;

beforeEach(() => {
  lib = new FakeLibSystem();
});

function put(
  fields: BsdInfoFields,
  opts: {
    cpuTicks?: number;
    footprint?: number;
    runnableTicks?: number;
    childTicks?: number;
    sid?: number;
    argv?: string[];
  } = {},
) {
  lib.processes.set(fields.pid, {
    ...processInfos(fields, {
      residentBytes: 50 << 20,
      userTicks: opts.cpuTicks ?? 0,
      systemTicks: 0,
      runningThreads: 0,
    }),
    procArgs2: procArgs2(opts.argv?.[0] ?? '/bin/x', opts.argv ?? ['x'], ['CLAUDECODE=1']),
    rusage: rusageInfoV4({
      residentBytes: 50 << 20,
      physFootprint: opts.footprint ?? 0,
      userTicks: opts.cpuTicks ?? 0,
      runnableTicks: opts.runnableTicks ?? 0,
      childUserTicks: opts.childTicks ?? 0,
      childSystemTicks: (opts.childTicks ?? 0) / 2,
    }),
    sid: opts.sid ?? fields.pid,
  });
}

const base = (pid: number, uid = 501): BsdInfoFields => ({
  status: 2,
  pid,
  ppid: 1,
  uid,
  comm: 'node',
  name: 'node',
  pgid: pid,
  startSec: 100,
  startUsec: 0,
});

describe('DarwinSampler readings against xnu', () => {
  it('reads argv with a buffer of exactly kern.argmax, which sysctl_procargsx accepts', () => {
    put(base(10), { argv: ['node', '/usr/local/bin/claude'] });
    const sampler = new DarwinSampler({ markerKeys: MARKERS }, lib);
    expect(sampler.sampleSome([10])[0]).toMatchObject({
      argv: ['node', '/usr/local/bin/claude'],
      markers: { CLAUDECODE: '1' },
      environReadable: true,
    });
  });

  it('converts CPU ticks with hw.tbfrequency, not mach_timebase_info (which is 1/1 under Rosetta)', () => {
    lib.timebaseValue = { numer: 1, denom: 1 }; // what an x86_64 process under Rosetta is told
    lib.tbFrequency = 24_000_000; // the Apple-silicon timebase proc_pidinfo counts in
    put(base(11), { cpuTicks: 24_000_000 * 90 });
    const record = new DarwinSampler({ markerKeys: MARKERS }, lib).sampleSome([11])[0]!;
    expect(record.cpuTimeMs).toBeCloseTo(90_000, 6);
  });

  it('falls back to mach_timebase_info only when hw.tbfrequency is missing', () => {
    lib.tbFrequency = null;
    lib.timebaseValue = { numer: 125, denom: 3 };
    put(base(12), { cpuTicks: 24_000_000 });
    expect(new DarwinSampler({ markerKeys: MARKERS }, lib).sampleSome([12])[0]!.cpuTimeMs).toBeCloseTo(
      1000,
      6,
    );
  });

  it('reports the physical footprint from proc_pid_rusage beside RSS', () => {
    put(base(13), { footprint: 123 << 20 });
    const record = new DarwinSampler({ markerKeys: MARKERS }, lib).sampleSome([13])[0]!;
    expect(record.rssBytes).toBe(50 << 20);
    expect(record.footprintBytes).toBe(123 << 20);
  });

  it('reports the run-queue wait: ri_runnable_time (running or waiting) less user and system time', () => {
    lib.tbFrequency = 24_000_000;
    // Ran 40 s and was runnable 100 s: it waited 60 s for a CPU (a busy loop beside busy neighbours).
    put(base(14), { cpuTicks: 24_000_000 * 40, runnableTicks: 24_000_000 * 100 });
    const record = new DarwinSampler({ markerKeys: MARKERS }, lib).sampleSome([14])[0]!;
    expect(record.cpuTimeMs).toBeCloseTo(40_000, 6);
    expect(record.runQueueWaitMs).toBeCloseTo(60_000, 6);
  });

  it('leaves the wait unknown when the kernel counted no runnable time for a task that ran', () => {
    put(base(15), { cpuTicks: 24_000_000 });
    expect(new DarwinSampler({ markerKeys: MARKERS }, lib).sampleSome([15])[0]).not.toHaveProperty(
      'runQueueWaitMs',
    );
  });

  it('reports what reaped children burned (ri_child_user_time + ri_child_system_time) in ms, as cutime + cstime', () => {
    lib.tbFrequency = 24_000_000;
    put(base(14), { cpuTicks: 24_000_000, childTicks: 24_000_000 * 4 });
    const record = new DarwinSampler({ markerKeys: MARKERS }, lib).sampleSome([14])[0]!;
    expect(record.cpuTimeMs).toBeCloseTo(1000, 6);
    // 4 s user + 2 s system of the children it waited for.
    expect(record.childCpuTimeMs).toBeCloseTo(6000, 6);
  });

  it("gives another user's process null CPU and memory, and asks for its task info once per identity", () => {
    put(base(20, 0));
    const sampler = new DarwinSampler({ markerKeys: MARKERS }, lib);
    const record = sampler.sampleSome([20])[0]!;
    expect(record).toMatchObject({
      uid: 0,
      cpuTimeMs: null,
      rssBytes: null,
      argv: [],
      environReadable: false,
    });
    expect(record).not.toHaveProperty('footprintBytes');
    expect(record).not.toHaveProperty('runQueueWaitMs');
    expect(record).not.toHaveProperty('childCpuTimeMs');
    const refusedAsks = () =>
      lib.calls.filter(
        (c) =>
          c === 'proc_pidinfo(20, 2, 0)' || c === 'proc_pidinfo(20, 3, 1)' || c.startsWith('sysctl(1,49,20'),
      ).length;
    expect(refusedAsks()).toBe(1);
    sampler.sampleSome([20]);
    sampler.sampleSome([20]);
    expect(refusedAsks()).toBe(1);

    // The pid reused by one of our own processes (a new start time): asked afresh, and answered.
    put({ ...base(20), startSec: 200 }, { cpuTicks: 24_000_000 });
    const reused = sampler.sampleSome([20])[0]!;
    expect(reused.cpuTimeMs).toBeCloseTo(1000, 6);
    expect(reused.uid).toBe(501);
  });

  it("reads another user's process fully when running as root", () => {
    lib.callerUid = 0;
    put(base(21, 88), { cpuTicks: 24_000_000 });
    const record = new DarwinSampler({ markerKeys: MARKERS }, lib).sampleSome([21])[0]!;
    expect(record.cpuTimeMs).toBeCloseTo(1000, 6);
    expect(record.argv).toEqual(['x']);
  });

  it('gives a zombie first seen the session of its group leader (getsid refuses zombies)', () => {
    put({ ...base(40), comm: 'zsh', name: 'zsh' }, { sid: 40 });
    const zombie = { ...base(41), pgid: 40, ppid: 40, status: SZOMB, comm: 'sleep', name: 'sleep' };
    lib.processes.set(41, { bsdInfo: bsdInfo(zombie), shortBsdInfo: shortBsdInfo(zombie), sid: 40 });
    const record = new DarwinSampler({ markerKeys: MARKERS }, lib).sampleSome([41])[0]!;
    expect(record).toMatchObject({ pid: 41, state: 'Z', sid: 40, cpuTimeMs: null, rssBytes: null });
  });

  it('leaves out a zombie whose session nothing can tell, rather than invent one', () => {
    const zombie = { ...base(42), pgid: 77, ppid: 1, status: SZOMB, comm: 'sleep', name: 'sleep' };
    lib.processes.set(42, { bsdInfo: bsdInfo(zombie), shortBsdInfo: shortBsdInfo(zombie) });
    const records = new DarwinSampler({ markerKeys: MARKERS }, lib).sampleSome([42]);
    expect(records).toEqual([]);
    expect(records.some((r) => r.sid === -1)).toBe(false);
  });
});
