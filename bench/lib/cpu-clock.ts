import { readFileSync } from 'node:fs';
import koffi from 'koffi';

const RUSAGE_CHILDREN = -1;

type GetRusage = (who: number, out: bigint[]) => number;

let getrusage: GetRusage | null | undefined;

/** struct rusage as 18 longs on 64-bit Linux: two timevals (sec, usec) then 14 counters. */
function loadGetrusage(): GetRusage | null {
  if (getrusage !== undefined) return getrusage;
  getrusage = null;
  if (process.platform !== 'linux' || (process.arch !== 'x64' && process.arch !== 'arm64')) return null;
  try {
    const libc = koffi.load('libc.so.6');
    getrusage = libc.func('int getrusage(int who, _Out_ int64_t *usage)') as GetRusage;
  } catch {
    getrusage = null;
  }
  return getrusage;
}

/**
 * CPU time (user + system, µs) of every waited-for child so far. getrusage(RUSAGE_CHILDREN) has µs
 * resolution; /proc/self/stat's cutime/cstime (the fallback) only clock ticks.
 */
export function childrenCpuMicros(): number {
  const call = loadGetrusage();
  if (call) {
    const out = new Array<bigint>(18).fill(0n);
    if (call(RUSAGE_CHILDREN, out) === 0) {
      const [us, uu, ss, su] = out.map(Number) as [number, number, number, number];
      return us * 1e6 + uu + ss * 1e6 + su;
    }
  }
  const text = readFileSync('/proc/self/stat', 'latin1');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // Fields 16 and 17 of proc(5) (cutime, cstime) are at 13 and 14 after the name.
  return (Number(fields[13]) + Number(fields[14])) * 10_000;
}

export function selfCpuMicros(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

/** This process's CPU plus its reaped children's, µs. */
export function totalCpuMicros(): number {
  return selfCpuMicros() + childrenCpuMicros();
}
