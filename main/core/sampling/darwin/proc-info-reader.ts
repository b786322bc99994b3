import type { LibSystem } from './libsystem';
import {
  type BsdInfo,
  type TaskInfo,
  decodeBsdInfo,
  decodeKinfoStartMicros,
  decodeChildCpuTicks,
  decodePhysFootprint,
  decodeRunQueueWaitTicks,
  decodeShortBsdInfo,
  decodeTaskInfo,
} from './proc-info-decoders';
import {
  BSDINFO_SIZE,
  CTL_KERN,
  EPERM,
  KERN_PROC,
  KERN_PROC_PID,
  KINFO_PROC_SIZE,
  PROC_FLAG_SLEADER,
  PROC_PIDT_SHORTBSDINFO,
  PROC_PIDTASKALLINFO,
  PROC_PIDTBSDINFO,
  RUSAGE_INFO_V4,
  RUSAGE_INFO_V4_SIZE,
  SHORTBSDINFO_SIZE,
  TASKALLINFO_SIZE,
} from './proc-info-layout';

/** What was remembered of a process's identity: its start time, and whether the kernel refused it. */
export interface KnownIdentity {
  startKey: number;
  denied: boolean;
}

export interface ProcInfo {
  bsd: BsdInfo;
  task: TaskInfo | null;
  startMicros: number;
  denied: boolean;
}

/**
 * One process's kernel info through libproc and sysctl (BSD and task info, kinfo_proc's start time, the
 * session, the memory footprint), into buffers reused from call to call.
 */
export class ProcInfoReader {
  private readonly info = Buffer.alloc(TASKALLINFO_SIZE);
  private readonly kinfo = Buffer.alloc(KINFO_PROC_SIZE);
  private readonly rusage = Buffer.alloc(RUSAGE_INFO_V4_SIZE);

  constructor(private readonly lib: LibSystem) {}

  /** Whether the pid is there at all (the short BSD info answers for zombies and other users' too). */
  exists(pid: number): boolean {
    return (
      this.lib.procPidInfo(pid, PROC_PIDT_SHORTBSDINFO, 1, this.info.subarray(0, SHORTBSDINFO_SIZE)) >=
      SHORTBSDINFO_SIZE
    );
  }

  /**
   * The richest info the kernel grants: BSD + task info for our own processes (or as root), BSD info
   * alone for zombies (arg 1 asks for them), and for other users' processes the short BSD info plus
   * the start time from kinfo_proc. Null when the pid is gone. An identity refused before (EPERM) goes
   * straight to what every user may read.
   */
  read(pid: number, cached: KnownIdentity | undefined): ProcInfo | null {
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
  readOthers(pid: number): { bsd: BsdInfo; task: null; startMicros: number } | null {
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
  sessionOf(pid: number, pgid: number, flags: number, zombie: boolean): number | null {
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

  /**
   * From one proc_pid_rusage(RUSAGE_INFO_V4): ri_phys_footprint, the run-queue wait
   * (decodeRunQueueWaitTicks) and the mach ticks of the children it reaped (ri_child_user_time +
   * ri_child_system_time); null when refused or gone.
   */
  usageOf(
    pid: number,
  ): { footprint: number | null; waitTicks: number | null; childTicks: number | null } | null {
    if (this.lib.procPidRusage(pid, RUSAGE_INFO_V4, this.rusage) !== 0) return null;
    return {
      footprint: decodePhysFootprint(this.rusage),
      waitTicks: decodeRunQueueWaitTicks(this.rusage),
      childTicks: decodeChildCpuTicks(this.rusage),
    };
  }
}
