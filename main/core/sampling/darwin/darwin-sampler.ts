import type { ListeningPort } from '../../../../shared/model';
import { distinctPorts } from '../linux/listening-ports';
import type { ExitWatchCoverage, ProcessRecord, ProcessSampler, SamplerOptions } from '../process-record';
import { KqueueExitWatch } from './kqueue-exit-watch';
import { type LibSystem, loadLibSystem } from './libsystem';
import {
  type BsdInfo,
  type TaskInfo,
  decodeBsdInfo,
  decodeCwd,
  decodeKinfoStartMicros,
  decodeListeningSocket,
  decodePhysFootprint,
  decodeShortBsdInfo,
  decodeSocketFds,
  decodeTaskInfo,
  machTicksToMs,
  stateLetter,
  ticksToMsAtFrequency,
} from './proc-info-decoders';
import {
  BSDINFO_SIZE,
  CTL_KERN,
  EPERM,
  KERN_ARGMAX,
  KERN_PROC,
  KERN_PROC_PID,
  KERN_PROCARGS2,
  KINFO_PROC_SIZE,
  PROC_FDINFO_SIZE,
  PROC_FLAG_SLEADER,
  PROC_PIDFDSOCKETINFO,
  PROC_PIDLISTFDS,
  PROC_PIDT_SHORTBSDINFO,
  PROC_PIDTASKALLINFO,
  PROC_PIDTBSDINFO,
  PROC_PIDVNODEPATHINFO,
  RUSAGE_INFO_V4,
  RUSAGE_INFO_V4_SIZE,
  SHORTBSDINFO_SIZE,
  SOCKET_FDINFO_SIZE,
  SZOMB,
  TASKALLINFO_SIZE,
  VNODEPATHINFO_SIZE,
} from './proc-info-layout';
import { decodeProcArgs2 } from './procargs-decoder';
import { forgetMissing, readEach } from '../read-each';

interface IdentityCache {
  startKey: number;
  /** Name when argv was read: a change means the process exec'd and argv must be read again. */
  name: string;
  argv: string[];
  markers: Record<string, string>;
  environReadable: boolean;
  /** Last session id seen, for zombies (getsid fails for them); null until one was seen. */
  sid: number | null;
  /** The kernel refused this identity's task info with EPERM (another user's process): do not ask again. */
  denied: boolean;
}

/** ARG_MAX in xnu bsd/sys/syslimits.h, which kern.argmax reports on macOS. */
const DEFAULT_ARGMAX = 1024 * 1024;

/**
 * Reads the macOS process table through libproc and sysctl, one process at a time, without spawning.
 * Without root, proc_pidinfo's full flavors, proc_pid_rusage and KERN_PROCARGS2 answer only for the
 * caller's own processes; other users' processes still appear, from the short BSD info and kinfo_proc,
 * with their CPU time and memory unknown (null) and argv empty. A refusal is remembered for the
 * process's identity (pid + start time), so a sweep does not ask again what the kernel refused.
 */
export class DarwinSampler implements ProcessSampler {
  readonly platform = 'darwin' as const;
  private readonly lib: LibSystem;
  private readonly cache = new Map<number, IdentityCache>();
  private readonly ttyNames = new Map<number, string | null>();
  private readonly ticksToMs: (ticks: number) => number;
  private readonly info = Buffer.alloc(TASKALLINFO_SIZE);
  private readonly kinfo = Buffer.alloc(KINFO_PROC_SIZE);
  private readonly rusage = Buffer.alloc(RUSAGE_INFO_V4_SIZE);
  private readonly args: Buffer;
  private vnodePaths: Buffer | null = null;
  private readonly socketInfo = Buffer.alloc(SOCKET_FDINFO_SIZE);
  private fdList = Buffer.alloc(256 * PROC_FDINFO_SIZE);
  private pids = new Int32Array(4096);
  private exitWatch: KqueueExitWatch | null = null;

  constructor(
    private readonly options: SamplerOptions,
    lib?: LibSystem,
  ) {
    // libSystem (and koffi) load only here, so importing this module loads nothing native.
    this.lib = lib ?? loadLibSystem();
    this.ticksToMs = this.tickConverter();
    // KERN_PROCARGS2 refuses a buffer larger than kern.argmax (+ the int argc) with EINVAL: ask with exactly argmax.
    this.args = Buffer.alloc(this.readArgMax());
  }

  listPids(): number[] {
    const pids = this.listInto((buf) => this.lib.procListAllPids(buf));
    // libproc answers 0, not -1, when the call failed (libproc.c proc_listpids); a real table is never
    // empty (launchd and this process are in it), so 0 is the failure, never "every process exited".
    if (!pids || pids.length === 0) throw new Error(`proc_listallpids failed (errno ${this.lib.errno()})`);
    return pids;
  }

  childrenOf(pid: number): number[] | null {
    const children = this.listInto((buf) => this.lib.procListChildPids(pid, buf));
    if (children === null || children.length > 0) return children;
    // No children and no such process look alike: the short BSD info tells them apart.
    const alive = this.lib.procPidInfo(
      pid,
      PROC_PIDT_SHORTBSDINFO,
      1,
      this.info.subarray(0, SHORTBSDINFO_SIZE),
    );
    return alive >= SHORTBSDINFO_SIZE ? [] : null;
  }

  /** Runs a libproc pid-list call, growing the buffer while the answer may have been cut short. */
  private listInto(call: (buf: Int32Array) => number): number[] | null {
    for (;;) {
      const n = call(this.pids);
      if (n < 0) return null;
      if (n < this.pids.length) return Array.from(this.pids.subarray(0, n));
      this.pids = new Int32Array(this.pids.length * 2);
    }
  }

  /** Follows these processes (pid → startKey) for their exit and forks through one kqueue (EVFILT_PROC). */
  watchExits(targets: ReadonlyMap<number, number>): ExitWatchCoverage {
    this.exitWatch ??= new KqueueExitWatch(this.lib, (pid) => this.startKeyNow(pid));
    return this.exitWatch.follow(targets);
  }

  exitedWatched(): readonly number[] {
    return this.exitWatch ? this.exitWatch.exited() : [];
  }

  forkedWatched(): readonly number[] {
    return this.exitWatch ? this.exitWatch.forked() : [];
  }

  waitForExits(onExit: () => void): (() => void) | null {
    this.exitWatch ??= new KqueueExitWatch(this.lib, (pid) => this.startKeyNow(pid));
    const watch = this.exitWatch;
    return watch.waitInThread(onExit) ? () => watch.stopWaiting() : null;
  }

  /** The exit watch, for tests: whether its worker thread waits, and when it stopped. */
  get exitWatchState(): { waitingInThread: boolean; stopped: Promise<void> } {
    return {
      waitingInThread: this.exitWatch?.waitingInThread ?? false,
      stopped: this.exitWatch?.whenStopped() ?? Promise.resolve(),
    };
  }

  close(): void {
    this.exitWatch?.close();
  }

  /**
   * Working directories from proc_pidinfo(PROC_PIDVNODEPATHINFO) (pvi_cdir.vip_path): null for a gone
   * pid or a zombie (ESRCH, proc_find) and for another user's process unless root (EPERM,
   * proc_security_policy), as bsd/kern/proc_info.c proc_pidinfo refuses them. An identity already
   * refused its task info is not asked again.
   */
  readCwd(pids: Iterable<number>): Map<number, string | null> {
    const buf = (this.vnodePaths ??= Buffer.alloc(VNODEPATHINFO_SIZE));
    const out = new Map<number, string | null>();
    for (const pid of pids) {
      if (this.cache.get(pid)?.denied) {
        out.set(pid, null);
        continue;
      }
      const n = this.lib.procPidInfo(pid, PROC_PIDVNODEPATHINFO, 0, buf);
      out.set(pid, n >= VNODEPATHINFO_SIZE ? decodeCwd(buf) : null);
    }
    return out;
  }

  /**
   * Listening sockets from each pid's descriptor list (PROC_PIDLISTFDS) and, for each socket
   * descriptor, proc_pidfdinfo(PROC_PIDFDSOCKETINFO): one call per descriptor of these pids only, no
   * table of the whole system. A pid the kernel refuses (gone, zombie, another user's) is absent, and
   * so is a process with no descriptor at all, which libproc's 0 cannot tell from a refusal. A
   * descriptor closed or replaced between the two calls is skipped (EBADF / ENOTSOCK, fp_get_ftype).
   */
  listeningPorts(pids: Iterable<number>): Map<number, ListeningPort[]> {
    const out = new Map<number, ListeningPort[]>();
    for (const pid of pids) {
      if (this.cache.get(pid)?.denied) continue;
      const fds = this.socketFdsOf(pid);
      if (fds === null) continue;
      const found: (ListeningPort | null)[] = [];
      for (const fd of fds) {
        if (this.lib.procPidFdInfo(pid, fd, PROC_PIDFDSOCKETINFO, this.socketInfo) < SOCKET_FDINFO_SIZE)
          continue;
        found.push(decodeListeningSocket(this.socketInfo));
      }
      out.set(pid, distinctPorts(found));
    }
    return out;
  }

  /**
   * proc_pidfdlist copies as many entries as fit and returns their bytes; a full buffer may have been
   * cut short, so it is doubled and asked again.
   */
  private socketFdsOf(pid: number): number[] | null {
    for (;;) {
      const n = this.lib.procPidInfo(pid, PROC_PIDLISTFDS, 0, this.fdList);
      if (n <= 0) return null;
      if (n < this.fdList.length) return decodeSocketFds(this.fdList, n);
      this.fdList = Buffer.alloc(this.fdList.length * 2);
    }
  }

  private startKeyNow(pid: number): number | null {
    const other = this.readOthers(pid);
    return other && other.bsd.status !== SZOMB ? other.startMicros : null;
  }

  sampleAll(): ProcessRecord[] {
    const pids = this.listPids();
    const records = this.sampleSome(pids);
    if (this.cache.size > records.length)
      forgetMissing(this.cache.keys(), pids, (pid) => this.cache.delete(pid));
    return records;
  }

  sampleSome(pids: Iterable<number>): ProcessRecord[] {
    return readEach(pids, (pid) => this.readOne(pid));
  }

  /** One process, or null when it vanished (never an error: processes exit while we read). */
  readOne(pid: number): ProcessRecord | null {
    const cached = this.cache.get(pid);
    const read = this.readInfo(pid, cached);
    if (!read) {
      this.cache.delete(pid);
      return null;
    }
    const { bsd, task, startMicros, denied } = read;
    const zombie = bsd.status === SZOMB;

    let known = cached;
    // A zombie keeps what was read while it lived (its name may also come from the shorter comm).
    if (!known || known.startKey !== startMicros || (known.name !== bsd.name && !zombie)) {
      const args = denied ? { argv: [], markers: {}, environReadable: false } : this.readArgs(pid, zombie);
      known = { startKey: startMicros, name: bsd.name, sid: null, denied, ...args };
      this.cache.set(pid, known);
    }
    known.denied = denied;
    const sid = this.sessionOf(pid, bsd.pgid, bsd.flags, zombie);
    if (sid !== null) known.sid = sid;
    else if (!zombie) {
      // Gone between proc_pidinfo and getsid.
      this.cache.delete(pid);
      return null;
    }
    if (known.sid === null) {
      // A zombie first seen whose group leader is gone too: its session cannot be known on macOS.
      // Leave it out rather than invent a session id (see ProcessRecord.sid).
      return null;
    }
    const footprint = task && !zombie ? this.footprintOf(pid) : null;

    return {
      pid,
      ppid: bsd.ppid,
      pgid: bsd.pgid,
      sid: known.sid,
      uid: bsd.uid,
      state: stateLetter(bsd.status, task ? task.runningThreads : null),
      startKey: startMicros,
      startedAt: Math.floor(startMicros / 1000),
      cpuTimeMs: task ? this.ticksToMs(task.cpuMachTicks) : null,
      rssBytes: task ? task.residentBytes : null,
      ...(footprint === null ? {} : { footprintBytes: footprint }),
      name: bsd.name,
      argv: known.argv,
      tty: this.ttyName(bsd.ttyDev),
      markers: known.markers,
      environReadable: known.environReadable,
    };
  }

  /**
   * The richest info the kernel grants: BSD + task info for our own processes (or as root), BSD info
   * alone for zombies (arg 1 asks for them), and for other users' processes the short BSD info plus
   * the start time from kinfo_proc. Null when the pid is gone. An identity refused before (EPERM) goes
   * straight to what every user may read.
   */
  private readInfo(
    pid: number,
    cached: IdentityCache | undefined,
  ): { bsd: BsdInfo; task: TaskInfo | null; startMicros: number; denied: boolean } | null {
    if (cached?.denied) {
      const other = this.readOthers(pid);
      // The same identity: the kernel would refuse again. A new one (pid reused) is asked afresh.
      if (!other || other.startMicros === cached.startKey) return other && { ...other, denied: true };
    }
    const info = this.info;
    if (this.lib.procPidInfo(pid, PROC_PIDTASKALLINFO, 0, info) >= TASKALLINFO_SIZE) {
      const bsd = decodeBsdInfo(info);
      if (bsd?.startMicros != null && bsd.pid === pid) {
        const task = decodeTaskInfo(info, BSDINFO_SIZE);
        return { bsd, task, startMicros: bsd.startMicros, denied: false };
      }
    }
    // proc_pidinfo checks the caller's uid against the target's for every flavor but the short one
    // (xnu bsd/kern/proc_info.c proc_pidinfo → proc_security_policy): EPERM means another user's.
    if (this.lib.errno() === EPERM) {
      const other = this.readOthers(pid);
      return other && { ...other, denied: true };
    }
    if (this.lib.procPidInfo(pid, PROC_PIDTBSDINFO, 1, info.subarray(0, BSDINFO_SIZE)) >= BSDINFO_SIZE) {
      const bsd = decodeBsdInfo(info);
      if (bsd?.startMicros != null && bsd.pid === pid)
        return { bsd, task: null, startMicros: bsd.startMicros, denied: false };
    }
    const denied = this.lib.errno() === EPERM;
    const other = this.readOthers(pid);
    return other && { ...other, denied };
  }

  /** What the kernel tells any user: the short BSD info (zombies too) and kinfo_proc's start time. */
  private readOthers(pid: number): { bsd: BsdInfo; task: null; startMicros: number } | null {
    const info = this.info.subarray(0, SHORTBSDINFO_SIZE);
    if (this.lib.procPidInfo(pid, PROC_PIDT_SHORTBSDINFO, 1, info) < SHORTBSDINFO_SIZE) return null;
    const bsd = decodeShortBsdInfo(info);
    if (!bsd || bsd.pid !== pid) return null;
    const mib = Int32Array.of(CTL_KERN, KERN_PROC, KERN_PROC_PID, pid);
    if (this.lib.sysctl(mib, this.kinfo) < KINFO_PROC_SIZE) return null;
    const startMicros = decodeKinfoStartMicros(this.kinfo, pid);
    return startMicros === null ? null : { bsd, task: null, startMicros };
  }

  /**
   * The session id, or null when the kernel cannot say. getsid refuses zombies (xnu bsd/kern/kern_prot.c
   * getsid: proc_find skips them, ESRCH); a process group lies within one session, so the group
   * leader's session is the zombie's, and a zombie that led its session is its own.
   */
  private sessionOf(pid: number, pgid: number, flags: number, zombie: boolean): number | null {
    // getsid(0) means "my own session": the kernel's pid 0 has none.
    if (pid === 0) return 0;
    const sid = this.lib.getsid(pid);
    if (sid >= 0) return sid;
    if (!zombie) return null;
    if (flags & PROC_FLAG_SLEADER) return pid;
    if (pgid > 0 && pgid !== pid) {
      const viaGroup = this.lib.getsid(pgid);
      if (viaGroup >= 0) return viaGroup;
    }
    return null;
  }

  /** ri_phys_footprint from proc_pid_rusage(RUSAGE_INFO_V4), or null when refused or gone. */
  private footprintOf(pid: number): number | null {
    if (this.lib.procPidRusage(pid, RUSAGE_INFO_V4, this.rusage) !== 0) return null;
    return decodePhysFootprint(this.rusage);
  }

  private readArgs(
    pid: number,
    zombie: boolean,
  ): Pick<IdentityCache, 'argv' | 'markers' | 'environReadable'> {
    const unreadable = { argv: [], markers: {}, environReadable: false };
    // A zombie has no address space left to read argv from.
    if (zombie) return unreadable;
    const length = this.lib.sysctl(Int32Array.of(CTL_KERN, KERN_PROCARGS2, pid), this.args);
    if (length < 0) return unreadable;
    return decodeProcArgs2(this.args, length, this.options.markerKeys) ?? unreadable;
  }

  private readArgMax(): number {
    const buf = Buffer.alloc(4);
    const n = this.lib.sysctl(Int32Array.of(CTL_KERN, KERN_ARGMAX), buf);
    const argmax = n === 4 ? buf.readInt32LE(0) : 0;
    return argmax > 0 ? argmax : DEFAULT_ARGMAX;
  }

  /**
   * Mach ticks → ms from hw.tbfrequency (xnu bsd/kern/kern_mib.c sysctl_tbfrequency, a 64-bit value):
   * under Rosetta mach_timebase_info answers 1/1 while proc_pidinfo counts the native 24 MHz ticks,
   * which would read CPU 41.7× too low. mach_timebase_info only when the sysctl is missing.
   */
  private tickConverter(): (ticks: number) => number {
    const buf = Buffer.alloc(8);
    if (this.lib.sysctlByName('hw.tbfrequency', buf) === 8) {
      const hz = Number(buf.readBigUInt64LE(0));
      if (hz > 0) return (ticks) => ticksToMsAtFrequency(ticks, hz);
    }
    const { numer, denom } = this.lib.timebase();
    return (ticks) => machTicksToMs(ticks, numer, denom);
  }

  private ttyName(dev: number | null): string | null {
    if (dev === null) return null;
    let name = this.ttyNames.get(dev);
    if (name === undefined) {
      name = this.lib.devname(dev);
      this.ttyNames.set(dev, name);
    }
    return name;
  }
}
