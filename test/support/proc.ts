import { execFileSync } from 'node:child_process';
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
  if (process.platform !== 'linux') return psGroupMembers(pgid);
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

/** Without /proc (macOS, in CI): the same answer from ps(1). sess is not a session id there, so sid is -1. */
function psGroupMembers(pgid: number): ProcStat[] {
  const out = execFileSync('ps', ['-axo', 'pid=,ppid=,pgid=,stat='], { encoding: 'utf8' });
  const members: ProcStat[] = [];
  for (const line of out.split('\n')) {
    const [pid, ppid, group, stat] = line.trim().split(/\s+/);
    if (Number(group) === pgid && stat && !stat.startsWith('Z'))
      members.push({ pid: Number(pid), ppid: Number(ppid), pgid, sid: -1, state: stat[0]! });
  }
  return members;
}
