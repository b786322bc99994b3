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

/**
 * proc_pid_rusage() flavor and struct rusage_info_v4 (bsd/sys/resource.h): ri_uuid[16] then 35 uint64
 * (ri_user_time … ri_runnable_time), 296 bytes; the kernel copies exactly that much out.
 */
export const RUSAGE_INFO_V4 = 4;
export const RUSAGE_INFO_V4_SIZE = 16 + 35 * 8;
export const RUSAGE_INFO = {
  userTime: 16,
  systemTime: 24,
  residentSize: 64,
  physFootprint: 72,
  /** ri_child_user_time / ri_child_system_time: mach ticks of the children it reaped. */
  childUserTime: 96,
  childSystemTime: 104,
  /**
   * ri_runnable_time, the last field of v4 (macOS 11+): the time the task's threads were runnable, running
   * or waiting for a CPU, in Mach absolute time units like ri_user_time and ri_system_time. fill_task_rusage
   * (bsd/kern/kern_resource.c) takes it from task_power_info_locked (osfmk/kern/task.c), which sums each
   * thread's runnable_timer and the task's total_runnable_time of ended threads (osfmk/kern/thread.c); the
   * timer starts when a thread is made runnable (thread_unblock, osfmk/kern/sched_prim.c) and stops when it
   * blocks.
   */
  runnableTime: 288,
} as const;

/** struct kevent (bsd/sys/event.h), 64-bit: ident, filter, flags, fflags, data, udata. */
export const KEVENT_SIZE = 32;
export const KEVENT = { ident: 0, filter: 8, flags: 10, fflags: 12, data: 16 } as const;
export const EVFILT_PROC = -5;
export const EV_ADD = 0x0001;
export const EV_DELETE = 0x0002;
export const EV_RECEIPT = 0x0040;
export const EV_ERROR = 0x4000;
export const NOTE_EXIT = 0x80000000;
/** bsd/sys/event.h; posted on the parent by fork (kern_fork.c) and by posix_spawn (kern_exec.c). */
export const NOTE_FORK = 0x40000000;

/**
 * The working directory: proc_pidinfo(PROC_PIDVNODEPATHINFO) fills struct proc_vnodepathinfo
 * (bsd/sys/proc_info.h) = vnode_info_path pvi_cdir, pvi_rdir. A vnode_info_path is struct vnode_info
 * (vinfo_stat of 136 bytes, int vi_type, int vi_pad, fsid_t vi_fsid: 152 bytes) then
 * char vip_path[MAXPATHLEN = PATH_MAX = 1024] (bsd/sys/param.h, bsd/sys/syslimits.h). The kernel
 * NUL-terminates the path (bsd/kern/proc_info.c proc_pidvnodepathinfo).
 */
export const PROC_PIDVNODEPATHINFO = 9;
export const MAXPATHLEN = 1024;
export const VNODE_INFO_SIZE = 152;
export const VNODE_INFO_PATH_SIZE = VNODE_INFO_SIZE + MAXPATHLEN;
export const VNODEPATHINFO_SIZE = 2 * VNODE_INFO_PATH_SIZE;
export const VNODEPATHINFO = { cdirPath: VNODE_INFO_SIZE } as const;

/**
 * The descriptor list: proc_pidinfo(PROC_PIDLISTFDS) fills struct proc_fdinfo { int32_t proc_fd;
 * uint32_t proc_fdtype; } per open descriptor, as many as fit (bsd/kern/proc_info.c proc_pidfdlist).
 */
export const PROC_PIDLISTFDS = 1;
export const PROC_FDINFO_SIZE = 8;
export const PROX_FDTYPE_SOCKET = 2;

/**
 * One socket: proc_pidfdinfo(PROC_PIDFDSOCKETINFO) fills struct socket_fdinfo = proc_fileinfo pfi
 * (24 bytes) then struct socket_info psi (bsd/sys/proc_info.h): vinfo_stat (136), soi_so, soi_pcb,
 * soi_type @152, soi_protocol @156, soi_family @160, 8 shorts, soi_oobmark, two sockbuf_info of 24
 * bytes, soi_kind @232, rfu_1, then the union soi_proto @240, whose largest member, un_sockinfo
 * (2 × uint64 + 2 × SOCK_MAXADDRLEN 255), makes it 528 bytes: 792 in all. In soi_proto, struct
 * in_sockinfo: insi_fport @0, insi_lport @4 (ints holding the inpcb's u_short in network byte order,
 * bsd/kern/socket_info.c fill_socketinfo), insi_vflag @24, insi_laddr @48 (16 bytes; IPv4 in its last
 * 4, struct in4in6_addr); struct tcp_sockinfo = in_sockinfo (80 bytes) then tcpsi_state @80.
 * Offsets below are from the start of socket_fdinfo.
 */
export const PROC_PIDFDSOCKETINFO = 3;
export const SOCKET_FDINFO_SIZE = 792;
const PSI = 24;
const SOI_PROTO = PSI + 240;
export const SOCKET_FDINFO = {
  type: PSI + 152,
  protocol: PSI + 156,
  family: PSI + 160,
  kind: PSI + 232,
  foreignPort: SOI_PROTO,
  localPort: SOI_PROTO + 4,
  vflag: SOI_PROTO + 24,
  localAddress: SOI_PROTO + 48,
  tcpState: SOI_PROTO + 80,
} as const;
/** soi_kind values (enum in bsd/sys/proc_info.h). */
export const SOCKINFO_IN = 1;
export const SOCKINFO_TCP = 2;
/** insi_vflag bits (INP_IPV4/INP_IPV6 of bsd/netinet/in_pcb.h, copied by fill_socketinfo). */
export const INI_IPV4 = 0x1;
export const INI_IPV6 = 0x2;
/** tcpsi_state: TCPS_LISTEN (bsd/sys/proc_info.h TSI_S_LISTEN). */
export const TSI_S_LISTEN = 1;
/** bsd/sys/socket.h, bsd/netinet/in.h. */
export const SOCK_DGRAM = 2;
export const IPPROTO_UDP = 17;

/** errno values the sampler tells apart. */
export const EPERM = 1;
export const ESRCH = 3;
