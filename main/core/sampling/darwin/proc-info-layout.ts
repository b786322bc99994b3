/**
 * Numbers and byte offsets from the macOS headers, for 64-bit processes (x86_64 and arm64 share them).
 * Sources: xnu bsd/sys/proc_info.h (struct proc_bsdinfo, proc_bsdshortinfo, proc_taskinfo, flavors),
 * bsd/sys/proc.h (p_stat values), bsd/sys/sysctl.h (mib numbers) and struct kinfo_proc as laid out by
 * golang.org/x/sys/unix ztypes_darwin_arm64.go (generated from the SDK headers by cgo -godefs).
 */

/** proc_pidinfo() flavors. */
export const PROC_PIDTASKALLINFO = 2;
export const PROC_PIDTBSDINFO = 3;
export const PROC_PIDT_SHORTBSDINFO = 13;

/** struct proc_bsdinfo: 12 × uint32, comm[16], name[32], 6 × uint32/int32, 2 × uint64. */
export const BSDINFO_SIZE = 136;
export const BSDINFO = {
  flags: 0,
  status: 4,
  pid: 12,
  ppid: 16,
  uid: 20,
  comm: 48,
  commLength: 16,
  name: 64,
  nameLength: 32,
  pgid: 100,
  tdev: 108,
  startSec: 120,
  startUsec: 128,
} as const;

/** struct proc_taskinfo: 6 × uint64 then 12 × int32. */
export const TASKINFO_SIZE = 96;
export const TASKINFO = {
  residentSize: 8,
  totalUser: 16,
  totalSystem: 24,
  numRunning: 88,
} as const;

/** struct proc_taskallinfo = proc_bsdinfo followed by proc_taskinfo. */
export const TASKALLINFO_SIZE = BSDINFO_SIZE + TASKINFO_SIZE;

/** struct proc_bsdshortinfo: pid, ppid, pgid, status, comm[16], flags, uid, gid, ruid, rgid, svuid, svgid, rfu. */
export const SHORTBSDINFO_SIZE = 64;
export const SHORTBSDINFO = {
  pid: 0,
  ppid: 4,
  pgid: 8,
  status: 12,
  comm: 16,
  commLength: 16,
  flags: 32,
  uid: 36,
} as const;

/** struct kinfo_proc (648 bytes): kp_proc.p_starttime (timeval: int64 sec, int32 usec) leads it. */
export const KINFO_PROC_SIZE = 648;
export const KINFO_PROC = { startSec: 0, startUsec: 8, stat: 36, pid: 40 } as const;

/** p_stat / pbi_status values. */
export const SIDL = 1;
export const SRUN = 2;
export const SSLEEP = 3;
export const SSTOP = 4;
export const SZOMB = 5;

/** pbi_flags bit: the process is its session's leader. */
export const PROC_FLAG_SLEADER = 0x20;

/** e_tdev when there is no controlling terminal ((dev_t)-1, read as uint32). */
export const NODEV = 0xffffffff;

/** sysctl mib numbers. */
export const CTL_KERN = 1;
export const KERN_ARGMAX = 8;
export const KERN_PROC = 14;
export const KERN_PROC_PID = 1;
export const KERN_PROCARGS2 = 49;

/** proc_pid_rusage() flavor and struct rusage_info_v4 (bsd/sys/resource.h): uuid[16] then 36 × uint64. */
export const RUSAGE_INFO_V4 = 4;
export const RUSAGE_INFO_V4_SIZE = 16 + 36 * 8;
export const RUSAGE_INFO = { residentSize: 64, physFootprint: 72 } as const;

/** struct kevent (bsd/sys/event.h), 64-bit: ident, filter, flags, fflags, data, udata. */
export const KEVENT_SIZE = 32;
export const KEVENT = { ident: 0, filter: 8, flags: 10, fflags: 12, data: 16 } as const;
export const EVFILT_PROC = -5;
export const EV_ADD = 0x0001;
export const EV_DELETE = 0x0002;
export const EV_RECEIPT = 0x0040;
export const EV_ERROR = 0x4000;
export const NOTE_EXIT = 0x80000000;

/** errno values the sampler tells apart. */
export const EPERM = 1;
export const ESRCH = 3;
