import type { LibSystem } from '../../main/core/sampling/darwin/libsystem';

/** What the kernel would answer for one pid; a missing buffer means that call fails. */
export interface FakeProcess {
  taskAllInfo?: Buffer;
  bsdInfo?: Buffer;
  shortBsdInfo?: Buffer;
  kinfoProc?: Buffer;
  procArgs2?: Buffer;
  sid?: number;
}

const ESRCH = 3;

/**
 * A stand-in for libSystem with the C functions' contracts: proc_pidinfo copies at most the caller's
 * buffer size and returns the bytes written (0 on failure), sysctl fails with -1, getsid with -1.
 */
export class FakeLibSystem implements LibSystem {
  readonly processes = new Map<number, FakeProcess>();
  readonly calls: string[] = [];
  argmax = 262144;
  timebaseValue = { numer: 125, denom: 3 };
  ttys = new Map<number, string>();
  private lastErrno = 0;

  procListAllPids(buf: Int32Array): number {
    const pids = [...this.processes.keys()];
    buf.set(pids.slice(0, buf.length));
    return pids.length;
  }

  procListChildPids(ppid: number, buf: Int32Array): number {
    const children: number[] = [];
    for (const [pid, p] of this.processes) {
      const info = p.taskAllInfo ?? p.bsdInfo;
      if (info && info.readUInt32LE(16) === ppid) children.push(pid);
    }
    buf.set(children.slice(0, buf.length));
    return children.length;
  }

  procPidInfo(pid: number, flavor: number, arg: number, buf: Buffer): number {
    this.calls.push(`proc_pidinfo(${pid}, ${flavor}, ${arg})`);
    const p = this.processes.get(pid);
    const source =
      flavor === 2 ? p?.taskAllInfo : flavor === 3 ? p?.bsdInfo : flavor === 13 ? p?.shortBsdInfo : undefined;
    if (!source || buf.length < source.length) return this.fail(ESRCH, 0);
    return source.copy(buf);
  }

  sysctl(mib: Int32Array, buf: Buffer): number {
    const [ctl, kind, a, b] = mib;
    if (ctl === 1 && kind === 8) {
      buf.writeInt32LE(this.argmax);
      return 4;
    }
    const pid = kind === 14 && a === 1 ? b : kind === 49 ? a : undefined;
    const p = pid === undefined ? undefined : this.processes.get(pid);
    const source = kind === 14 ? p?.kinfoProc : kind === 49 ? p?.procArgs2 : undefined;
    if (!source || buf.length < source.length) return this.fail(22, -1);
    this.calls.push(`sysctl(${[...mib].join(',')})`);
    return source.copy(buf);
  }

  getsid(pid: number): number {
    this.calls.push(`getsid(${pid})`);
    const sid = this.processes.get(pid)?.sid;
    return sid === undefined ? this.fail(ESRCH, -1) : sid;
  }

  devname(dev: number): string | null {
    return this.ttys.get(dev) ?? null;
  }

  timebase(): { numer: number; denom: number } {
    return this.timebaseValue;
  }

  errno(): number {
    return this.lastErrno;
  }

  private fail(errno: number, rc: number): number {
    this.lastErrno = errno;
    return rc;
  }
}
