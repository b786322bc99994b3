import type { LibSystem } from '../../main/core/sampling/darwin/libsystem';
import { FakeDescriptors } from './fake-descriptors';
import {
  EPERM,
  ESRCH,
  ENOMEM,
  EBADF,
  EINVAL,
  ENOTSUP,
  NOTE_EXIT,
  NOTE_FORK,
  NOTE_TRACK,
  NOTE_TRACKERR,
  NOTE_CHILD,
  ENOTSOCK,
  XNU_ARG_MAX,
  PROC_PIDTASKALLINFO,
  PROC_PIDTBSDINFO,
  PROC_PIDT_SHORTBSDINFO,
  PROC_PIDLISTFDS,
  PROC_PIDVNODEPATHINFO,
  PROC_FDINFO_SIZE,
  FLAVOR_SIZE,
  PROC_PIDFDSOCKETINFO,
  SOCKET_FDINFO_SIZE,
  PROX_FDTYPE_SOCKET,
  SZOMB,
  RUSAGE_INFO_V4,
  RUSAGE_INFO_V4_SIZE,
} from './xnu-numbers';

/**
 * What the kernel holds for one pid; a missing buffer means the kernel has no such data for it. Who owns
 * the process and whether it is a zombie come from its BSD info (pbi_uid, pbi_status), as in the kernel.
 */
export interface FakeProcess {
  taskAllInfo?: Buffer;
  bsdInfo?: Buffer;
  shortBsdInfo?: Buffer;
  kinfoProc?: Buffer;
  procArgs2?: Buffer;
  /** struct rusage_info_v4 (see darwin-buffers rusageInfoV4). */
  rusage?: Buffer;
  sid?: number;
  /** struct proc_vnodepathinfo (see darwin-buffers vnodePathInfo). */
  vnodePaths?: Buffer;
  /** Open descriptors in fd order; a socket's carries its struct socket_fdinfo (darwin-buffers socketFdInfo). */
  fds?: FakeFd[];
}

export interface FakeFd {
  fd: number;
  /** PROX_FDTYPE_*: 1 vnode, 2 socket, 6 pipe. */
  type: number;
  socket?: Buffer;
}

/**
 * A stand-in for libSystem that answers as xnu does, refusals included. Each rule names the xnu source
 * (apple-oss-distributions/xnu) it follows; test/darwin/fake-refusals.test.ts keeps one test per rule.
 *
 * - proc_listallpids / proc_listchildpids (bsd/kern/proc_info.c proc_listpids): proc_security_policy may
 *   refuse (the errno it gives); a buffer smaller than one int → ENOMEM; otherwise as many pids as fit,
 *   never more. libproc's wrapper (libsyscall/wrappers/libproc/libproc.c proc_listpids) turns a failure
 *   (-1 from __proc_info) into 0, so both calls answer 0, never -1, on failure.
 * - proc_pidinfo (bsd/kern/proc_info.c proc_pidinfo): a buffer smaller than the flavor's struct → ENOMEM;
 *   a pid proc_find cannot find → ESRCH, except that the BSD-info flavors with arg ≠ 0 also find zombies
 *   (proc_find_zombref); every flavor but PROC_PIDT_SHORTBSDINFO checks the caller's uid against the
 *   target's (proc_security_policy, CHECK_SAME_USER) → EPERM unless the caller is root. libproc's
 *   wrapper (libsyscall/wrappers/libproc/libproc.c proc_pidinfo) turns the failure into 0.
 *   PROC_PIDLISTFDS (proc_pidfdlist) needs room for one struct proc_fdinfo (ENOMEM otherwise) and
 *   copies as many as fit, returning their bytes; PROC_PIDVNODEPATHINFO (proc_pidvnodepathinfo)
 *   returns the whole struct proc_vnodepathinfo. Neither finds zombies.
 * - proc_pidfdinfo (bsd/kern/proc_info.c proc_pidfdinfo): a buffer smaller than the flavor's struct →
 *   ENOMEM before the pid is looked up; proc_find only, so a gone pid or a zombie → ESRCH; another
 *   user's process → EPERM (proc_security_policy, CHECK_SAME_USER, root excepted); a descriptor not
 *   open → EBADF and one that is not a socket → ENOTSOCK (bsd/kern/kern_descrip.c fp_get_ftype).
 *   libproc's wrapper turns the failure into 0.
 * - proc_pid_rusage (bsd/kern/proc_info.c proc_pid_rusage): gone → ESRCH (zombies are found); another
 *   user's → EPERM (proc_security_policy, CHECK_SAME_USER).
 * - sysctl KERN_PROCARGS2 (bsd/kern/kern_sysctl.c sysctl_procargsx): after reserving the int argc, a
 *   buffer larger than ARG_MAX → EINVAL; a pid proc_find cannot find (gone or zombie) → EINVAL; another
 *   user's process, unless root → EINVAL.
 * - sysctl KERN_PROC_PID (bsd/kern/kern_sysctl.c sysctl_prochandle): no such pid is no error, 0 bytes.
 * - sysctl KERN_ARGMAX (bsd/kern/kern_sysctl.c SYSCTL_INT argmax): ARG_MAX, 1048576.
 * - sysctlbyname hw.tbfrequency (bsd/kern/kern_mib.c sysctl_tbfrequency): a 64-bit value.
 * - getsid (bsd/kern/kern_prot.c getsid): proc_find only, so a zombie or a gone pid → ESRCH; no uid check.
 * - poll, pipe, read, write: see fake-descriptors.ts; the kqueue is readable while exits are pending.
 */
export class FakeLibSystem implements LibSystem {
  readonly processes = new Map<number, FakeProcess>();
  readonly calls: string[] = [];
  /** The caller's uid; 0 is root, which proc_security_policy and sysctl_procargsx let through. */
  callerUid = 501;
  argmax = XNU_ARG_MAX;
  /** hw.tbfrequency: 24 MHz on Apple silicon; null when the sysctl is missing. */
  tbFrequency: number | null = 24_000_000;
  timebaseValue = { numer: 125, denom: 3 };
  ttys = new Map<number, string>();
  /** When set, proc_listpids fails with this errno (proc_security_policy refusing, as in a sandbox). */
  listPidsRefusal: number | null = null;
  private lastErrno = 0;
  /** kqueue: pids with a NOTE_EXIT knote, and exit events not yet collected. */
  /** kqueue: each followed pid's knote and the notes it asked for (kn_sfflags). */
  private readonly knotes = new Map<number, number>();
  /** Fired knotes not yet collected, by pid: the notes that fired (kn_fflags, EV_CLEAR coalesces them). */
  private pending = new Map<number, number>();
  private kq: number | null = null;
  readonly descriptors = new FakeDescriptors(
    (fd) => (fd === this.kq ? this.pending.size > 0 : null),
    (fd) => this.closeKqueue(fd),
  );

  procListAllPids(buf: Int32Array): number {
    return this.listPids([...this.processes.keys()], buf);
  }

  procListChildPids(ppid: number, buf: Int32Array): number {
    const children: number[] = [];
    for (const [pid, p] of this.processes) {
      const info = p.taskAllInfo ?? p.bsdInfo;
      if (info && info.readUInt32LE(16) === ppid) children.push(pid);
    }
    return this.listPids(children, buf);
  }

  /** proc_listpids as the kernel and libproc answer it (see the rule above). */
  private listPids(pids: number[], buf: Int32Array): number {
    if (this.listPidsRefusal !== null) return this.fail(this.listPidsRefusal, 0);
    if (buf.byteLength < 4) return this.fail(ENOMEM, 0);
    const written = pids.slice(0, buf.length);
    buf.set(written);
    return written.length;
  }

  procPidInfo(pid: number, flavor: number, arg: number, buf: Buffer): number {
    this.calls.push(`proc_pidinfo(${pid}, ${flavor}, ${arg})`);
    const size = FLAVOR_SIZE.get(flavor);
    if (size === undefined) return this.fail(EINVAL, 0);
    if (buf.length < size) return this.fail(ENOMEM, 0);
    const p = this.processes.get(pid);
    if (!p || !this.exists(p)) return this.fail(ESRCH, 0);
    const findsZombies = arg !== 0 && (flavor === PROC_PIDTBSDINFO || flavor === PROC_PIDT_SHORTBSDINFO);
    if (this.isZombie(p) && !findsZombies) return this.fail(ESRCH, 0);
    if (flavor !== PROC_PIDT_SHORTBSDINFO && !this.sameUserOrRoot(p)) return this.fail(EPERM, 0);
    const source =
      flavor === PROC_PIDTASKALLINFO
        ? p.taskAllInfo
        : flavor === PROC_PIDTBSDINFO
          ? p.bsdInfo
          : p.shortBsdInfo;
    if (flavor === PROC_PIDLISTFDS) {
      const fits = Math.min(p.fds?.length ?? 0, Math.floor(buf.length / PROC_FDINFO_SIZE));
      for (let i = 0; i < fits; i++) {
        const entry = p.fds![i]!;
        buf.writeInt32LE(entry.fd, i * PROC_FDINFO_SIZE);
        buf.writeUInt32LE(entry.type, i * PROC_FDINFO_SIZE + 4);
      }
      return fits * PROC_FDINFO_SIZE;
    }
    if (flavor === PROC_PIDVNODEPATHINFO) {
      // Every live process has a current directory; a test that leaves it out gets zeroes, as the kernel's.
      buf.fill(0, 0, size);
      p.vnodePaths?.copy(buf, 0, 0, size);
      return size;
    }
    // The kernel has every flavor of a process it found; a test that leaves one out means "cannot read".
    if (!source) return this.fail(ESRCH, 0);
    return source.copy(buf, 0, 0, size);
  }

  procPidFdInfo(pid: number, fd: number, flavor: number, buf: Buffer): number {
    this.calls.push(`proc_pidfdinfo(${pid}, ${fd}, ${flavor})`);
    if (flavor !== PROC_PIDFDSOCKETINFO) return this.fail(EINVAL, 0);
    if (buf.length < SOCKET_FDINFO_SIZE) return this.fail(ENOMEM, 0);
    const p = this.processes.get(pid);
    if (!p || !this.exists(p) || this.isZombie(p)) return this.fail(ESRCH, 0);
    if (!this.sameUserOrRoot(p)) return this.fail(EPERM, 0);
    const entry = p.fds?.find((f) => f.fd === fd);
    if (!entry) return this.fail(EBADF, 0);
    if (entry.type !== PROX_FDTYPE_SOCKET || !entry.socket) return this.fail(ENOTSOCK, 0);
    entry.socket.copy(buf, 0, 0, SOCKET_FDINFO_SIZE);
    return SOCKET_FDINFO_SIZE;
  }

  procPidRusage(pid: number, flavor: number, buf: Buffer): number {
    this.calls.push(`proc_pid_rusage(${pid}, ${flavor})`);
    // No length goes to the kernel: it copies sizeof(struct rusage_info_v4) out whatever the buffer.
    if (buf.length < RUSAGE_INFO_V4_SIZE)
      throw new Error(`proc_pid_rusage into ${buf.length} bytes: the kernel would write past the end`);
    if (flavor !== RUSAGE_INFO_V4) return this.fail(EINVAL, -1);
    const p = this.processes.get(pid);
    if (!p || !this.exists(p)) return this.fail(ESRCH, -1);
    if (!this.sameUserOrRoot(p)) return this.fail(EPERM, -1);
    if (!p.rusage) return this.fail(ESRCH, -1);
    p.rusage.copy(buf, 0, 0, RUSAGE_INFO_V4_SIZE);
    return 0;
  }

  sysctl(mib: Int32Array, buf: Buffer): number {
    const [ctl, kind, a, b] = mib;
    if (ctl === 1 && kind === 8 && mib.length === 2) {
      if (buf.length < 4) return this.fail(ENOMEM, -1);
      buf.writeInt32LE(this.argmax);
      return 4;
    }
    if (ctl === 1 && kind === 14 && a === 1 && mib.length === 4) {
      this.calls.push(`sysctl(${[...mib].join(',')})`);
      const p = this.processes.get(b as number);
      if (!p?.kinfoProc) return 0;
      return p.kinfoProc.copy(buf, 0, 0, Math.min(buf.length, p.kinfoProc.length));
    }
    if (ctl === 1 && kind === 49 && mib.length === 3) {
      this.calls.push(`sysctl(${[...mib].join(',')})`);
      if (buf.length - 4 > this.argmax) return this.fail(EINVAL, -1);
      const p = this.processes.get(a as number);
      if (!p || !this.exists(p) || this.isZombie(p)) return this.fail(EINVAL, -1);
      if (this.ownerOf(p) !== null && !this.sameUserOrRoot(p)) return this.fail(EINVAL, -1);
      if (!p.procArgs2) return this.fail(EINVAL, -1);
      // A shorter buffer gets a cut answer, never an error (sysctl_procargsx, rdar://25397314).
      return p.procArgs2.copy(buf, 0, 0, Math.min(buf.length, p.procArgs2.length));
    }
    return this.fail(EINVAL, -1);
  }

  sysctlByName(name: string, buf: Buffer): number {
    if (name !== 'hw.tbfrequency' || this.tbFrequency === null) return this.fail(2 /* ENOENT */, -1);
    if (buf.length < 8) return this.fail(ENOMEM, -1);
    buf.writeBigUInt64LE(BigInt(this.tbFrequency));
    return 8;
  }

  getsid(pid: number): number {
    this.calls.push(`getsid(${pid})`);
    const p = this.processes.get(pid);
    if (!p || !this.exists(p) || this.isZombie(p)) return this.fail(ESRCH, -1);
    return p.sid === undefined ? this.fail(ESRCH, -1) : p.sid;
  }

  kqueue(): number {
    this.kq = 7;
    return this.kq;
  }

  /**
   * kevent with a zero timeout (bsd/kern/kern_event.c): each change with EV_RECEIPT yields an EV_ERROR
   * event whose data is 0 or the errno; EVFILT_PROC attach refuses a pid proc_find cannot find (gone or
   * zombie) with ESRCH, refuses NOTE_TRACK, NOTE_TRACKERR and NOTE_CHILD with ENOTSUP, and asks no
   * permission for NOTE_EXIT or NOTE_FORK (filt_procattach); deleting a knote that is not there is ENOENT.
   * Fired notes are returned only when no receipt was: one event per knote, its notes or'ed together
   * (filt_procevent: kn_fflags |= event; the knote is EV_CLEAR).
   */
  kevent(kq: number, changes: Buffer, nchanges: number, events: Buffer, nevents: number): number {
    if (kq !== this.kq) return this.fail(9 /* EBADF */, -1);
    let out = 0;
    const emit = (pid: number, flags: number, fflags: number, data: number): void => {
      const at = out * 32;
      events.fill(0, at, at + 32);
      events.writeBigUInt64LE(BigInt(pid), at);
      events.writeInt16LE(-5, at + 8);
      events.writeUInt16LE(flags, at + 10);
      events.writeUInt32LE(fflags >>> 0, at + 12);
      events.writeBigInt64LE(BigInt(data), at + 16);
      out++;
    };
    for (let i = 0; i < nchanges; i++) {
      const at = i * 32;
      const pid = Number(changes.readBigUInt64LE(at));
      const flags = changes.readUInt16LE(at + 10);
      if (changes.readInt16LE(at + 8) !== -5) return this.fail(EINVAL, -1);
      let error = 0;
      if (flags & 0x1) {
        const p = this.processes.get(pid);
        const notes = changes.readUInt32LE(at + 12);
        if (notes & (NOTE_TRACK | NOTE_TRACKERR | NOTE_CHILD)) error = ENOTSUP;
        else if (!p || !this.exists(p) || this.isZombie(p)) error = ESRCH;
        else this.knotes.set(pid, notes);
      } else if (flags & 0x2) {
        if (!this.knotes.delete(pid)) error = 2; // ENOENT
        this.pending.delete(pid);
      }
      if (flags & 0x40 && out < nevents) emit(pid, 0x4000, 0, error);
    }
    if (out > 0) return out;
    for (const [pid, notes] of this.pending) {
      if (out >= nevents) break;
      this.pending.delete(pid);
      emit(pid, (notes & NOTE_EXIT ? 0x8000 | 0x10 : 0) | 0x20 /* EV_CLEAR */, notes, 0);
    }
    return out;
  }

  close(fd: number): number {
    return this.descriptors.close(fd);
  }

  private closeKqueue(fd: number): number {
    if (fd !== this.kq) return this.fail(9, -1);
    this.kq = null;
    this.knotes.clear();
    this.pending.clear();
    this.descriptors.changed();
    return 0;
  }

  poll(fds: Buffer, count: number, timeoutMs: number): number {
    return this.descriptors.poll(fds, count, timeoutMs);
  }

  pollAsync(
    fds: Buffer,
    count: number,
    timeoutMs: number,
    done: (err: unknown, ready: number) => void,
  ): void {
    this.descriptors.pollAsync(fds, count, timeoutMs, done);
  }

  pipe(): [number, number] {
    return this.descriptors.pipe();
  }

  read(fd: number, _buf: Buffer, count: number): number {
    return this.descriptors.read(fd, count);
  }

  write(fd: number, _buf: Buffer, count: number): number {
    return this.descriptors.write(fd, count);
  }

  /** The process exits (and is reaped): a NOTE_EXIT knote on it fires once (filt_proc, EV_ONESHOT). */
  exit(pid: number): void {
    this.processes.delete(pid);
    this.fire(pid, NOTE_EXIT);
    this.knotes.delete(pid);
    this.descriptors.changed();
  }

  /**
   * The process forks (or posix_spawns) `child`, which the caller puts in the table: a knote on the
   * parent that asked for NOTE_FORK fires (kern_fork.c and kern_exec.c post NOTE_FORK on the parent).
   */
  fork(parent: number): void {
    this.fire(parent, NOTE_FORK);
    this.descriptors.changed();
  }

  private fire(pid: number, note: number): void {
    const asked = this.knotes.get(pid);
    if (asked === undefined || (asked & note) === 0) return;
    this.pending.set(pid, ((this.pending.get(pid) ?? 0) | note) >>> 0);
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

  /** A process the kernel knows: it has at least one kind of BSD info. */
  private exists(p: FakeProcess): boolean {
    return (p.taskAllInfo ?? p.bsdInfo ?? p.shortBsdInfo) !== undefined;
  }

  private isZombie(p: FakeProcess): boolean {
    const bsd = p.bsdInfo ?? p.taskAllInfo;
    if (bsd) return bsd.readUInt32LE(4) === SZOMB;
    return p.shortBsdInfo !== undefined && p.shortBsdInfo.readUInt32LE(12) === SZOMB;
  }

  private ownerOf(p: FakeProcess): number | null {
    const bsd = p.bsdInfo ?? p.taskAllInfo;
    if (bsd) return bsd.readUInt32LE(20);
    return p.shortBsdInfo ? p.shortBsdInfo.readUInt32LE(36) : null;
  }

  private sameUserOrRoot(p: FakeProcess): boolean {
    return this.callerUid === 0 || this.ownerOf(p) === this.callerUid;
  }

  private fail(errno: number, rc: number): number {
    this.lastErrno = errno;
    return rc;
  }
}
