import { decodeName } from '../linux/stat-parser';
import {
  BSDINFO,
  BSDINFO_SIZE,
  KINFO_PROC,
  KINFO_PROC_SIZE,
  NODEV,
  SHORTBSDINFO,
  SHORTBSDINFO_SIZE,
  SIDL,
  SRUN,
  SSLEEP,
  SSTOP,
  SZOMB,
  RUSAGE_INFO,
  RUSAGE_INFO_V4_SIZE,
  TASKINFO,
  TASKINFO_SIZE,
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

/** ri_phys_footprint of a struct rusage_info_v4 (what Activity Monitor shows as Memory); null if short. */
export function decodePhysFootprint(buf: Buffer): number | null {
  if (buf.length < RUSAGE_INFO_V4_SIZE) return null;
  return Number(buf.readBigUInt64LE(RUSAGE_INFO.physFootprint));
}

/** A fixed-size char array: up to the first NUL, or all of it when the kernel filled it completely. */
function cString(buf: Buffer, start: number, length: number): string {
  let end = start;
  const limit = start + length;
  while (end < limit && buf[end] !== 0) end++;
  return decodeName(buf.subarray(start, end));
}
