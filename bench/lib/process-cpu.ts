import { readdirSync, readFileSync } from 'node:fs';

/** CPU (ms) of every thread of a process, from schedstat (ns resolution, unlike stat's clock ticks). */
export function processCpuMs(pid: number): number {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'latin1').split(' ')[0]);
    } catch {
      // A thread that ended.
    }
  }
  return ns / 1e6;
}
