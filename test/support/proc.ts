import { readFileSync, readdirSync } from 'node:fs';

export interface ProcStat {
  pid: number;
  ppid: number;
  pgid: number;
  sid: number;
  state: string;
}

/** Test-side /proc reader, deliberately independent of the code under test. */
export function readProcStat(pid: number): ProcStat | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return null;
  }
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { pid, state: rest[0]!, ppid: Number(rest[1]), pgid: Number(rest[2]), sid: Number(rest[3]) };
}

export function allPids(): number[] {
  return readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .map(Number);
}

/** Live (non-zombie) members of a process group. */
export function groupMembers(pgid: number): ProcStat[] {
  const out: ProcStat[] = [];
  for (const pid of allPids()) {
    const s = readProcStat(pid);
    if (s && s.pgid === pgid && s.state !== 'Z') out.push(s);
  }
  return out;
}

export function isAlive(pid: number): boolean {
  const s = readProcStat(pid);
  return s !== null && s.state !== 'Z';
}
