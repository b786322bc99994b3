import { describe, expect, it } from 'vitest';
import { bsdInfo, kinfoProc, procArgs2, rusageInfoV4, shortBsdInfo, taskInfo } from './darwin-buffers';
import { FakeLibSystem } from './fake-libsystem';
import { EINVAL, ENOMEM, EPERM, ESRCH, XNU_ARG_MAX } from './xnu-numbers';

// One test per refusal the TypeScript stand-in copies from xnu (see the rules in fake-libsystem.ts).
const SZOMB = 5;

function table(): FakeLibSystem {
  const lib = new FakeLibSystem();
  const own = { status: 2, pid: 10, ppid: 1, uid: 501, comm: 'node', pgid: 10, startSec: 1, startUsec: 0 };
  const bsd = bsdInfo(own);
  lib.processes.set(10, {
    taskAllInfo: Buffer.concat([
      bsd,
      taskInfo({ residentBytes: 4096, userTicks: 1, systemTicks: 1, runningThreads: 0 }),
    ]),
    bsdInfo: bsd,
    shortBsdInfo: shortBsdInfo(own),
    kinfoProc: kinfoProc({ pid: 10, stat: 2, startSec: 1, startUsec: 0 }),
    procArgs2: procArgs2('/usr/local/bin/node', ['node'], ['CLAUDECODE=1']),
    rusage: rusageInfoV4({ residentBytes: 4096, physFootprint: 8192 }),
    sid: 10,
  });
  const root = { status: 2, pid: 20, ppid: 1, uid: 0, comm: 'launchd', pgid: 20, startSec: 1, startUsec: 0 };
  const rootBsd = bsdInfo(root);
  lib.processes.set(20, {
    taskAllInfo: Buffer.concat([
      rootBsd,
      taskInfo({ residentBytes: 1, userTicks: 1, systemTicks: 1, runningThreads: 0 }),
    ]),
    bsdInfo: rootBsd,
    shortBsdInfo: shortBsdInfo(root),
    procArgs2: procArgs2('/sbin/launchd', ['launchd'], []),
    rusage: rusageInfoV4({ residentBytes: 1, physFootprint: 1 }),
    sid: 20,
  });
  const zombie = { ...own, pid: 30, status: SZOMB, comm: 'zsh', pgid: 10 };
  lib.processes.set(30, {
    bsdInfo: bsdInfo(zombie),
    shortBsdInfo: shortBsdInfo(zombie),
    procArgs2: procArgs2('/bin/zsh', ['zsh'], []),
    rusage: rusageInfoV4({ residentBytes: 0, physFootprint: 0 }),
    sid: 10,
  });
  return lib;
}

const buf = (n: number): Buffer => Buffer.alloc(n);

describe('the TypeScript libSystem stand-in refuses what xnu refuses', () => {
  it('kern.argmax is ARG_MAX, 1048576 (bsd/sys/syslimits.h, kern_sysctl.c SYSCTL_INT argmax)', () => {
    const out = buf(4);
    expect(table().sysctl(Int32Array.of(1, 8), out)).toBe(4);
    expect(out.readInt32LE(0)).toBe(1048576);
    expect(XNU_ARG_MAX).toBe(1048576);
  });

  it('KERN_PROCARGS2 with more than ARG_MAX after the argc int: EINVAL (sysctl_procargsx)', () => {
    const lib = table();
    expect(lib.sysctl(Int32Array.of(1, 49, 10), buf(XNU_ARG_MAX + 64 * 1024))).toBe(-1);
    expect(lib.errno()).toBe(EINVAL);
    expect(lib.sysctl(Int32Array.of(1, 49, 10), buf(XNU_ARG_MAX + 4))).toBeGreaterThan(0);
    expect(lib.sysctl(Int32Array.of(1, 49, 10), buf(XNU_ARG_MAX + 5))).toBe(-1);
  });

  it('KERN_PROCARGS2 of another user’s process: EINVAL, and root may read it (sysctl_procargsx)', () => {
    const lib = table();
    expect(lib.sysctl(Int32Array.of(1, 49, 20), buf(XNU_ARG_MAX))).toBe(-1);
    expect(lib.errno()).toBe(EINVAL);
    lib.callerUid = 0;
    expect(lib.sysctl(Int32Array.of(1, 49, 20), buf(XNU_ARG_MAX))).toBeGreaterThan(0);
  });

  it('KERN_PROCARGS2 of a zombie or a gone pid: EINVAL (proc_find finds neither)', () => {
    const lib = table();
    expect(lib.sysctl(Int32Array.of(1, 49, 30), buf(XNU_ARG_MAX))).toBe(-1);
    expect(lib.errno()).toBe(EINVAL);
    expect(lib.sysctl(Int32Array.of(1, 49, 99), buf(XNU_ARG_MAX))).toBe(-1);
    expect(lib.errno()).toBe(EINVAL);
  });

  it('proc_pidinfo with a buffer smaller than the flavor: ENOMEM (proc_pidinfo)', () => {
    const lib = table();
    expect(lib.procPidInfo(10, 2, 0, buf(136))).toBe(0);
    expect(lib.errno()).toBe(ENOMEM);
  });

  it('proc_pidinfo of another user’s process: EPERM for all flavors but the short one (proc_security_policy)', () => {
    const lib = table();
    expect(lib.procPidInfo(20, 2, 0, buf(232))).toBe(0);
    expect(lib.errno()).toBe(EPERM);
    expect(lib.procPidInfo(20, 3, 1, buf(136))).toBe(0);
    expect(lib.errno()).toBe(EPERM);
    expect(lib.procPidInfo(20, 13, 0, buf(64))).toBe(64);
    lib.callerUid = 0;
    expect(lib.procPidInfo(20, 2, 0, buf(232))).toBe(232);
  });

  it('proc_pidinfo of a zombie: ESRCH unless a BSD-info flavor asks with arg 1 (proc_find_zombref)', () => {
    const lib = table();
    expect(lib.procPidInfo(30, 2, 0, buf(232))).toBe(0);
    expect(lib.errno()).toBe(ESRCH);
    expect(lib.procPidInfo(30, 3, 0, buf(136))).toBe(0);
    expect(lib.errno()).toBe(ESRCH);
    expect(lib.procPidInfo(30, 3, 1, buf(136))).toBe(136);
    expect(lib.procPidInfo(30, 13, 1, buf(64))).toBe(64);
  });

  it('proc_pidinfo of a gone pid: ESRCH', () => {
    const lib = table();
    expect(lib.procPidInfo(99, 13, 1, buf(64))).toBe(0);
    expect(lib.errno()).toBe(ESRCH);
  });

  it('proc_pid_rusage: EPERM for another user’s, ESRCH for a gone pid, a zombie answers (proc_pid_rusage)', () => {
    const lib = table();
    expect(lib.procPidRusage(20, 4, buf(296))).toBe(-1);
    expect(lib.errno()).toBe(EPERM);
    expect(lib.procPidRusage(99, 4, buf(296))).toBe(-1);
    expect(lib.errno()).toBe(ESRCH);
    expect(lib.procPidRusage(30, 4, buf(296))).toBe(0);
    const out = buf(296);
    expect(lib.procPidRusage(10, 4, out)).toBe(0);
    expect(Number(out.readBigUInt64LE(72))).toBe(8192);
  });

  it('getsid of a zombie: ESRCH; of another user’s process: answered (kern_prot.c getsid)', () => {
    const lib = table();
    expect(lib.getsid(30)).toBe(-1);
    expect(lib.errno()).toBe(ESRCH);
    expect(lib.getsid(20)).toBe(20);
  });

  it('KERN_PROC_PID of a gone pid is no error, just 0 bytes (sysctl_prochandle)', () => {
    expect(table().sysctl(Int32Array.of(1, 14, 1, 99), buf(648))).toBe(0);
  });

  it('hw.tbfrequency is a 64-bit value (kern_mib.c sysctl_tbfrequency)', () => {
    const lib = table();
    expect(lib.sysctlByName('hw.tbfrequency', buf(4))).toBe(-1);
    const out = buf(8);
    expect(lib.sysctlByName('hw.tbfrequency', out)).toBe(8);
    expect(out.readBigUInt64LE(0)).toBe(24_000_000n);
  });
});

describe('proc_listpids (bsd/kern/proc_info.c proc_listpids; libproc.c turns -1 into 0)', () => {
  it('answers 0 with errno on failure, never -1, and never more pids than fit', () => {
    const lib = table();
    expect(lib.procListAllPids(new Int32Array(0))).toBe(0);
    expect(lib.errno()).toBe(ENOMEM);
    lib.listPidsRefusal = EPERM;
    expect(lib.procListAllPids(new Int32Array(16))).toBe(0);
    expect(lib.procListChildPids(1, new Int32Array(16))).toBe(0);
    expect(lib.errno()).toBe(EPERM);
    lib.listPidsRefusal = null;
    const two = new Int32Array(2);
    expect(lib.procListAllPids(two)).toBe(2);
    expect(lib.procListAllPids(new Int32Array(16))).toBeGreaterThan(2);
  });
});
