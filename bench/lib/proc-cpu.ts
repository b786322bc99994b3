import { readFileSync, readdirSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const USER_HZ = 100;

/** A whole process's CPU time (all threads, utime + stime of proc(5)), seconds; null once it is gone. */
export function processCpuSeconds(pid: number): number | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // utime and stime: fields 14 and 15 of proc(5), 11 and 12 after the name.
    return (Number(fields[11]) + Number(fields[12])) / USER_HZ;
  } catch {
    return null;
  }
}

/** Descendants of `root` (any depth) whose command line says they are Chromium renderers. */
export function rendererPids(root: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const text = readFileSync(`/proc/${name}/stat`, 'latin1');
      parent.set(Number(name), Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Gone meanwhile.
    }
  }
  const under = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === root) return true;
    return false;
  };
  return [...parent.keys()].filter((pid) => {
    if (!under(pid)) return false;
    try {
      // Processes forked from Chromium's zygote rewrite their title, so the arguments may be joined by spaces.
      return /(^|[\0 ])--type=renderer([\0 ]|$)/.test(readFileSync(`/proc/${pid}/cmdline`, 'latin1'));
    } catch {
      return false;
    }
  });
}

/** % of one core each of `pids` used over `seconds` (whole processes, all threads). */
export async function cpuPercentOver(
  pids: Record<string, number[]>,
  seconds: number,
): Promise<Record<string, number>> {
  const total = (list: number[]): number => list.reduce((s, pid) => s + (processCpuSeconds(pid) ?? 0), 0);
  const before = Object.fromEntries(Object.entries(pids).map(([k, list]) => [k, total(list)]));
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const elapsed = (performance.now() - t0) / 1000;
  return Object.fromEntries(
    Object.entries(pids).map(([k, list]) => [k, ((total(list) - before[k]!) / elapsed) * 100]),
  );
}
