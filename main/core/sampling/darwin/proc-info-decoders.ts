import type { ListeningPort } from '../../../../shared/model';
import { formatIpv6 } from '../linux/socket-table';
import { decodeName } from '../linux/stat-parser';
import {
  BSDINFO,
  BSDINFO_SIZE,
  INI_IPV4,
  INI_IPV6,
  IPPROTO_UDP,
  KINFO_PROC,
  KINFO_PROC_SIZE,
  MAXPATHLEN,
  NODEV,
  PROC_FDINFO_SIZE,
  PROX_FDTYPE_SOCKET,
  SHORTBSDINFO,
  SHORTBSDINFO_SIZE,
  SOCK_DGRAM,
  SOCKET_FDINFO,
  SOCKET_FDINFO_SIZE,
  SOCKINFO_IN,
  SOCKINFO_TCP,
  SIDL,
  SRUN,
  SSLEEP,
  SSTOP,
  SZOMB,
  RUSAGE_INFO,
  RUSAGE_INFO_V4_SIZE,
  TASKINFO,
  TASKINFO_SIZE,
  TSI_S_LISTEN,
  VNODEPATHINFO,
  VNODEPATHINFO_SIZE,
} from './proc-info-layout';

/** What Corral uses of struct proc_bsdinfo (or of the shorter proc_bsdshortinfo, which lacks some). */
export interface BsdInfo {
  pid: number;
  ppid: number;
  pgid: number;
  uid: number;
  status: number;
  flags: number;
  /** p_name when the kernel registered one (up to 32 bytes), else p_comm (up to 16). */
  name: string;
  /** Controlling terminal's dev_t, or null without one (or when the flavor does not report it). */
  ttyDev: number | null;
  /** Microseconds since epoch; null for proc_bsdshortinfo, which has no start time. */
  startMicros: number | null;
}

export interface TaskInfo {
  residentBytes: number;
  /** User + system CPU time in Mach absolute time units (see mach_timebase_info). */
  cpuMachTicks: number;
  runningThreads: number;
}

/** Decodes struct proc_bsdinfo at `offset`; null if the buffer is too short. */
export function decodeBsdInfo(buf: Buffer, offset = 0): BsdInfo | null {
  if (buf.length < offset + BSDINFO_SIZE) return null;
  const at = (field: number): number => buf.readUInt32LE(offset + field);
  const name = cString(buf, offset + BSDINFO.name, BSDINFO.nameLength);
  const tdev = at(BSDINFO.tdev);
  const sec = Number(buf.readBigUInt64LE(offset + BSDINFO.startSec));
  const usec = Number(buf.readBigUInt64LE(offset + BSDINFO.startUsec));
  return {
    pid: at(BSDINFO.pid),
    ppid: at(BSDINFO.ppid),
    pgid: at(BSDINFO.pgid),
    uid: at(BSDINFO.uid),
    status: at(BSDINFO.status),
    flags: at(BSDINFO.flags),
    name: name || cString(buf, offset + BSDINFO.comm, BSDINFO.commLength),
    ttyDev: tdev === NODEV ? null : tdev,
    startMicros: sec * 1_000_000 + usec,
  };
}

/** Decodes struct proc_bsdshortinfo, readable for every user's processes (no start time, no tty). */
export function decodeShortBsdInfo(buf: Buffer, offset = 0): BsdInfo | null {
  if (buf.length < offset + SHORTBSDINFO_SIZE) return null;
  const at = (field: number): number => buf.readUInt32LE(offset + field);
  return {
    pid: at(SHORTBSDINFO.pid),
    ppid: at(SHORTBSDINFO.ppid),
    pgid: at(SHORTBSDINFO.pgid),
    uid: at(SHORTBSDINFO.uid),
    status: at(SHORTBSDINFO.status),
    flags: at(SHORTBSDINFO.flags),
    name: cString(buf, offset + SHORTBSDINFO.comm, SHORTBSDINFO.commLength),
    ttyDev: null,
    startMicros: null,
  };
}

/** Decodes struct proc_taskinfo at `offset`; null if the buffer is too short. */
export function decodeTaskInfo(buf: Buffer, offset = 0): TaskInfo | null {
  if (buf.length < offset + TASKINFO_SIZE) return null;
  const u64 = (field: number): number => Number(buf.readBigUInt64LE(offset + field));
  return {
    residentBytes: u64(TASKINFO.residentSize),
    cpuMachTicks: u64(TASKINFO.totalUser) + u64(TASKINFO.totalSystem),
    runningThreads: buf.readInt32LE(offset + TASKINFO.numRunning),
  };
}

/** p_starttime of a struct kinfo_proc, in microseconds since epoch; null if it is not the asked pid. */
export function decodeKinfoStartMicros(buf: Buffer, pid: number): number | null {
  if (buf.length < KINFO_PROC_SIZE || buf.readInt32LE(KINFO_PROC.pid) !== pid) return null;
  const sec = Number(buf.readBigInt64LE(KINFO_PROC.startSec));
  const usec = buf.readInt32LE(KINFO_PROC.startUsec);
  return sec * 1_000_000 + usec;
}

/**
 * State letter in the Linux vocabulary. The kernel leaves p_stat at SRUN for nearly every live
 * process (ps derives R/S from its threads), so running threads decide between R and S; without task
 * info a live process's state is unknown ('?').
 */
export function stateLetter(status: number, runningThreads: number | null): string {
  switch (status) {
    case SZOMB:
      return 'Z';
    case SSTOP:
      return 'T';
    case SIDL:
    case SRUN:
    case SSLEEP:
      if (runningThreads === null) return status === SSLEEP ? 'S' : '?';
      return runningThreads > 0 ? 'R' : 'S';
    default:
      return '?';
  }
}

/** Mach absolute time units → milliseconds (numer/denom from mach_timebase_info: 1/1 on Intel, 125/3 on Apple silicon). */
export function machTicksToMs(ticks: number, numer: number, denom: number): number {
  return (ticks * numer) / denom / 1_000_000;
}

/**
 * Mach absolute time units → milliseconds from the timebase's frequency (sysctl hw.tbfrequency: 24 MHz
 * on Apple silicon, 1 GHz on Intel). Unlike mach_timebase_info, which answers 1/1 to a process running
 * under Rosetta while proc_pidinfo still counts native 24 MHz ticks, the frequency is the hardware's.
 */
export function ticksToMsAtFrequency(ticks: number, frequencyHz: number): number {
  return (ticks * 1000) / frequencyHz;
}

/**
 * ri_child_user_time + ri_child_system_time of a struct rusage_info_v4: CPU of the children it reaped
 * (their reaped children included), in mach ticks, as Linux's cutime + cstime; null if short.
 */
export function decodeChildCpuTicks(buf: Buffer): number | null {
  if (buf.length < RUSAGE_INFO_V4_SIZE) return null;
  return Number(
    buf.readBigUInt64LE(RUSAGE_INFO.childUserTime) + buf.readBigUInt64LE(RUSAGE_INFO.childSystemTime),
  );
}

/** ri_phys_footprint of a struct rusage_info_v4 (what Activity Monitor shows as Memory); null if short. */
export function decodePhysFootprint(buf: Buffer): number | null {
  if (buf.length < RUSAGE_INFO_V4_SIZE) return null;
  return Number(buf.readBigUInt64LE(RUSAGE_INFO.physFootprint));
}

/**
 * The run-queue wait of a struct rusage_info_v4, in Mach absolute time units: ri_runnable_time (running or
 * waiting) less ri_user_time and ri_system_time (running). Null if short, or when the kernel counted no
 * runnable time at all (the field left zero: a task that ran has some, so nothing is known of its waits).
 */
export function decodeRunQueueWaitTicks(buf: Buffer): number | null {
  if (buf.length < RUSAGE_INFO_V4_SIZE) return null;
  const runnable = Number(buf.readBigUInt64LE(RUSAGE_INFO.runnableTime));
  const ran = Number(buf.readBigUInt64LE(RUSAGE_INFO.userTime) + buf.readBigUInt64LE(RUSAGE_INFO.systemTime));
  if (runnable === 0) return null;
  return Math.max(0, runnable - ran);
}

/**
 * pvi_cdir.vip_path of a struct proc_vnodepathinfo: the working directory, decoded as UTF-8 as Node
 * decodes a Linux readlink. Null when the buffer is short or the path empty (the kernel leaves it
 * zeroed when the process has no current directory, as the kernel's own processes).
 */
export function decodeCwd(buf: Buffer): string | null {
  if (buf.length < VNODEPATHINFO_SIZE) return null;
  const start = VNODEPATHINFO.cdirPath;
  const end = buf.indexOf(0, start);
  const path = buf.toString('utf8', start, end < 0 || end > start + MAXPATHLEN ? start + MAXPATHLEN : end);
  return path === '' ? null : path;
}

/** The socket descriptors among the `bytes` of struct proc_fdinfo that PROC_PIDLISTFDS wrote. */
export function decodeSocketFds(buf: Buffer, bytes: number): number[] {
  const fds: number[] = [];
  const end = Math.min(bytes, buf.length);
  for (let at = 0; at + PROC_FDINFO_SIZE <= end; at += PROC_FDINFO_SIZE) {
    if (buf.readUInt32LE(at + 4) === PROX_FDTYPE_SOCKET) fds.push(buf.readInt32LE(at));
  }
  return fds;
}

/**
 * The listener a struct socket_fdinfo describes, or null when it is not one: a TCP socket in
 * TSI_S_LISTEN, or a UDP socket bound to a port with no foreign port (how a UDP server waits, the
 * rule the Linux reader applies to /proc/net/udp). A socket with INI_IPV6 set is tcp6/udp6, a
 * dual-stack one bound to `::` included (it has both bits, bsd/netinet/tcp_usrreq.c tcp6_usr_bind);
 * one with INI_IPV4 alone is tcp/udp, its address in the last 4 bytes of insi_laddr. The ports are
 * u_shorts in network byte order widened to int on a little-endian machine (every Mac): the port is
 * the int's first two bytes read big-endian.
 */
export function decodeListeningSocket(buf: Buffer): ListeningPort | null {
  if (buf.length < SOCKET_FDINFO_SIZE) return null;
  const kind = buf.readInt32LE(SOCKET_FDINFO.kind);
  let tcp: boolean;
  if (kind === SOCKINFO_TCP) {
    if (buf.readInt32LE(SOCKET_FDINFO.tcpState) !== TSI_S_LISTEN) return null;
    tcp = true;
  } else if (kind === SOCKINFO_IN) {
    const udp =
      buf.readInt32LE(SOCKET_FDINFO.type) === SOCK_DGRAM &&
      buf.readInt32LE(SOCKET_FDINFO.protocol) === IPPROTO_UDP;
    if (!udp || buf.readUInt16BE(SOCKET_FDINFO.foreignPort) !== 0) return null;
    tcp = false;
  } else {
    return null;
  }
  const port = buf.readUInt16BE(SOCKET_FDINFO.localPort);
  if (port === 0) return null;
  const vflag = buf[SOCKET_FDINFO.vflag] ?? 0;
  const at = SOCKET_FDINFO.localAddress;
  if (vflag & INI_IPV6) {
    const address = formatIpv6([...buf.subarray(at, at + 16)]);
    return { protocol: tcp ? 'tcp6' : 'udp6', address, port };
  }
  if (vflag & INI_IPV4) {
    const address = [...buf.subarray(at + 12, at + 16)].join('.');
    return { protocol: tcp ? 'tcp' : 'udp', address, port };
  }
  return null;
}

/** A fixed-size char array: up to the first NUL, or all of it when the kernel filled it completely. */
function cString(buf: Buffer, start: number, length: number): string {
  let end = start;
  const limit = start + length;
  while (end < limit && buf[end] !== 0) end++;
  return decodeName(buf.subarray(start, end));
}
