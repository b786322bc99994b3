import { beforeEach, describe, expect, it } from 'vitest';
import { DarwinSampler } from '../../main/core/sampling/darwin/darwin-sampler';
import {
  bsdInfo,
  type BsdInfoFields,
  kinfoProc,
  procArgs2,
  processInfos,
  shortBsdInfo,
  taskInfo,
} from './darwin-buffers';
import { FakeLibSystem } from './fake-libsystem';
import { EPERM } from './xnu-numbers';
import { parsePsAux, recordedLines } from './recorded-ps';

const MARKERS = new Set(['CLAUDECODE', 'CLAUDE_CODE_SESSION_ID']);
const SZOMB = 5;
const PROC_FLAG_SLEADER = 0x20;

let lib: FakeLibSystem;
let sampler: DarwinSampler;

beforeEach(() => {
  lib = new FakeLibSystem();
  sampler = new DarwinSampler({ markerKeys: MARKERS }, lib);
});

function ownProcess(
  fields: BsdInfoFields,
  opts: { argv: string[]; env?: string[]; sid: number; cpuTicks?: number },
) {
  lib.processes.set(fields.pid, {
    ...processInfos(fields, {
      residentBytes: 1 << 20,
      userTicks: opts.cpuTicks ?? 0,
      systemTicks: 0,
      runningThreads: 1,
    }),
    procArgs2: procArgs2(opts.argv[0] ?? '', opts.argv, opts.env ?? []),
    sid: opts.sid,
  });
}

describe('DarwinSampler', () => {
  it('fills every field of a record from the recorded VS Code helper (microsoft/vscode#12144)', () => {
    const [parent, child] = recordedLines('ps-aux-vscode-12144.txt').map(parsePsAux) as [
      ReturnType<typeof parsePsAux>,
      ReturnType<typeof parsePsAux>,
    ];
    const exe =
      '/Applications/Visual Studio Code - Insiders.app/Contents/Frameworks/Code - Insiders Helper.app/Contents/MacOS/Code - Insiders Helper';
    expect(child.command.startsWith(`${exe} `)).toBe(true);
    const argv = [exe, ...child.command.slice(exe.length + 1).split(' ')];
    const fields: BsdInfoFields = {
      status: 2,
      pid: child.pid,
      ppid: parent.pid,
      uid: 501,
      comm: 'Code - Insiders ',
      name: 'Code - Insiders Helper',
      pgid: parent.pid,
      tdev: 0x10000004,
      startSec: 1474794900,
      startUsec: 250_000,
    };
    const bsd = bsdInfo(fields);
    lib.ttys.set(0x10000004, 'ttys004');
    lib.processes.set(child.pid, {
      // pti_total_* in Mach ticks of the 24 MHz Apple-silicon clock: TIME 3:03.05 = 183.05 s.
      taskAllInfo: Buffer.concat([
        bsd,
        taskInfo({
          residentBytes: child.rssKiB * 1024,
          userTicks: 4_000_000_000,
          systemTicks: 393_200_000,
          runningThreads: 1,
        }),
      ]),
      procArgs2: procArgs2(exe, argv, ['HOME=/Users/gerhard', 'CLAUDECODE=1']),
      sid: 63700,
    });

    const [record] = sampler.sampleSome([child.pid]);
    expect(record).toBeDefined();
    expect(record!.cpuTimeMs).toBeCloseTo(child.cpuMs, 6);
    expect({ ...record, cpuTimeMs: 0 }).toEqual({
      pid: 64122,
      ppid: 63704,
      pgid: 63704,
      sid: 63700,
      uid: 501,
      state: 'R',
      startKey: 1474794900250000,
      startedAt: 1474794900250,
      cpuTimeMs: 0,
      rssBytes: 266108 * 1024,
      name: 'Code - Insiders Helper',
      argv,
      tty: 'ttys004',
      markers: { CLAUDECODE: '1' },
      environReadable: true,
    });
    expect(record!.argv[0]).toBe(exe);
    expect(record!.argv).toContain('--background-color=#171717');
  });

  it('skips a pid that vanished (proc_pidinfo returns 0 for every flavor) without an error', () => {
    ownProcess(
      { status: 2, pid: 100, ppid: 1, uid: 501, comm: 'node', pgid: 100, startSec: 10, startUsec: 0 },
      { argv: ['node', 'server.js'], sid: 100 },
    );
    const records = sampler.sampleSome([100, 4242]);
    expect(records.map((r) => r.pid)).toEqual([100]);
    expect(lib.calls).toContain('proc_pidinfo(4242, 13, 1)');
  });

  it('skips a process that exits between proc_pidinfo and getsid', () => {
    ownProcess(
      { status: 2, pid: 101, ppid: 1, uid: 501, comm: 'yes', pgid: 101, startSec: 10, startUsec: 0 },
      { argv: ['yes'], sid: 101 },
    );
    delete lib.processes.get(101)!.sid;
    expect(sampler.sampleSome([101])).toEqual([]);
  });

  it('keeps a zombie from its BSD info (asked with arg 1), with empty argv and the leader flag as its session', () => {
    const fields = {
      flags: PROC_FLAG_SLEADER,
      status: SZOMB,
      pid: 200,
      ppid: 1,
      uid: 501,
      comm: 'bash',
      name: 'bash',
      pgid: 200,
      startSec: 20,
      startUsec: 5,
    };
    lib.processes.set(200, { bsdInfo: bsdInfo(fields) });
    const [record] = sampler.sampleSome([200]);
    expect(lib.calls).toContain('proc_pidinfo(200, 3, 1)');
    expect(record).toMatchObject({
      pid: 200,
      state: 'Z',
      sid: 200,
      argv: [],
      environReadable: false,
      cpuTimeMs: null,
    });
    expect(record!.startKey).toBe(20_000_005);
  });

  it('keeps what it read while a process lived once it becomes a zombie', () => {
    const fields: BsdInfoFields = {
      status: 2,
      pid: 201,
      ppid: 1,
      uid: 501,
      comm: 'sleep',
      name: 'sleep',
      pgid: 150,
      startSec: 21,
      startUsec: 0,
    };
    ownProcess(fields, { argv: ['sleep', '1000'], env: ['CLAUDECODE=1'], sid: 150 });
    expect(sampler.sampleSome([201])[0]).toMatchObject({ argv: ['sleep', '1000'], sid: 150 });

    lib.processes.set(201, { bsdInfo: bsdInfo({ ...fields, status: SZOMB }) });
    expect(sampler.sampleSome([201])[0]).toMatchObject({
      state: 'Z',
      argv: ['sleep', '1000'],
      sid: 150,
      markers: { CLAUDECODE: '1' },
    });
  });

  it("lists another user's process from the short BSD info and kinfo_proc, with unknowns marked", () => {
    lib.processes.set(88, {
      shortBsdInfo: shortBsdInfo({ pid: 88, ppid: 1, pgid: 88, status: 2, comm: 'WindowServer', uid: 88 }),
      kinfoProc: kinfoProc({ pid: 88, stat: 2, startSec: 1700000000, startUsec: 42 }),
      sid: 88,
    });
    expect(sampler.sampleSome([88])).toEqual([
      {
        pid: 88,
        ppid: 1,
        pgid: 88,
        sid: 88,
        uid: 88,
        state: '?',
        startKey: 1700000000000042,
        startedAt: 1700000000000,
        cpuTimeMs: null,
        rssBytes: null,
        name: 'WindowServer',
        argv: [],
        tty: null,
        markers: {},
        environReadable: false,
      },
    ]);
  });

  it('reads argv once per identity and again after exec or pid reuse', () => {
    const fields: BsdInfoFields = {
      status: 2,
      pid: 300,
      ppid: 1,
      uid: 501,
      comm: 'bash',
      name: 'bash',
      pgid: 300,
      startSec: 30,
      startUsec: 0,
    };
    ownProcess(fields, { argv: ['bash', '-c', 'exec node x.js'], sid: 300 });
    sampler.sampleSome([300]);
    sampler.sampleSome([300]);
    const argReads = () => lib.calls.filter((c) => c === 'sysctl(1,49,300)').length;
    expect(argReads()).toBe(1);

    ownProcess({ ...fields, comm: 'node', name: 'node' }, { argv: ['node', 'x.js'], sid: 300 });
    expect(sampler.sampleSome([300])[0]!.argv).toEqual(['node', 'x.js']);
    expect(argReads()).toBe(2);

    ownProcess({ ...fields, comm: 'node', name: 'node', startSec: 31 }, { argv: ['node', 'y.js'], sid: 300 });
    expect(sampler.sampleSome([300])[0]!.argv).toEqual(['node', 'y.js']);
    expect(argReads()).toBe(3);
  });

  it('never asks getsid(0), which would answer with the caller’s own session', () => {
    lib.processes.set(0, {
      shortBsdInfo: shortBsdInfo({ status: 2, pid: 0, ppid: 0, uid: 0, comm: 'kernel_task', pgid: 0 }),
      kinfoProc: kinfoProc({ pid: 0, stat: 2, startSec: 1, startUsec: 0 }),
      sid: 999,
    });
    expect(sampler.sampleSome([0])[0]).toMatchObject({ pid: 0, sid: 0, name: 'kernel_task' });
    expect(lib.calls).not.toContain('getsid(0)');
  });

  it('lists every pid, growing its buffer past 4096 entries', () => {
    for (let pid = 1; pid <= 5000; pid++) lib.processes.set(pid, {});
    const pids = sampler.listPids();
    expect(pids.length).toBe(5000);
    expect(pids[4999]).toBe(5000);
  });

  it('a failed proc_listallpids (0, as libproc answers) is an error, not an empty table', () => {
    for (let pid = 1; pid <= 3; pid++) lib.processes.set(pid, {});
    lib.listPidsRefusal = EPERM;
    expect(() => sampler.listPids()).toThrow(/proc_listallpids failed \(errno 1\)/);
    lib.listPidsRefusal = null;
    expect(sampler.listPids()).toEqual([1, 2, 3]);
  });

  it('lists a live process’s direct children, [] for a childless one and null for a gone one', () => {
    for (const pid of [500, 501, 502]) {
      ownProcess(
        {
          status: 2,
          pid,
          ppid: pid === 500 ? 1 : 500,
          uid: 501,
          comm: 'sh',
          pgid: 500,
          startSec: 1,
          startUsec: 0,
        },
        { argv: ['sh'], sid: 500 },
      );
    }
    expect(sampler.childrenOf(500)).toEqual([501, 502]);
    expect(sampler.childrenOf(501)).toEqual([]);
    expect(sampler.childrenOf(9999)).toBeNull();
  });

  it('sampleAll returns the live processes and forgets the dead ones', () => {
    ownProcess(
      { status: 2, pid: 400, ppid: 1, uid: 501, comm: 'a', pgid: 400, startSec: 1, startUsec: 0 },
      { argv: ['a'], sid: 400 },
    );
    ownProcess(
      { status: 2, pid: 401, ppid: 1, uid: 501, comm: 'b', pgid: 401, startSec: 1, startUsec: 0 },
      { argv: ['b'], sid: 401 },
    );
    expect(sampler.sampleAll().map((r) => r.pid)).toEqual([400, 401]);
    lib.processes.delete(401);
    expect(sampler.sampleAll().map((r) => r.pid)).toEqual([400]);
    // Coming back with the same pid and start time still reads argv afresh: the old entry was evicted.
    ownProcess(
      { status: 2, pid: 401, ppid: 1, uid: 501, comm: 'b', pgid: 401, startSec: 1, startUsec: 0 },
      { argv: ['b', 'again'], sid: 401 },
    );
    expect(sampler.sampleAll().find((r) => r.pid === 401)?.argv).toEqual(['b', 'again']);
  });
});
