import type { ProcessRecord, ProcessSampler } from '../sampling/process-record';
import { LinuxSampler } from '../sampling/linux/linux-sampler';
import { ProcFileReader } from '../sampling/linux/proc-files';

/** What watching a member needs: who it is, where it is, whether it is dead. */
export type MemberStat = Pick<ProcessRecord, 'pid' | 'ppid' | 'pgid' | 'sid' | 'state' | 'startKey'> & {
  uid?: number;
};

export type ReadMembers = (pids: Iterable<number>) => MemberStat[];

/**
 * The reader for the 10 ms watch. On Linux it reads only /proc/<pid>/stat and parses just the fields
 * it needs (a full sampler record costs several times more, which adds up over a 1,000-member group);
 * elsewhere, and for any other sampler, it asks the sampler.
 */
export function memberReader(sampler: ProcessSampler): ReadMembers {
  if (!(sampler instanceof LinuxSampler)) return (pids) => sampler.sampleSome(pids);
  const reader = new ProcFileReader();
  return (pids) => {
    const out: MemberStat[] = [];
    for (const pid of pids) {
      const file = reader.read(`/proc/${pid}/stat`);
      const stat = file && parseMemberStat(reader.bytes, file.length);
      if (stat && stat.pid === pid) out.push(stat);
    }
    return out;
  };
}

const SPACE = 0x20;

/** proc(5) fields 1, 3-6 and 22 of /proc/<pid>/stat; null for anything malformed. */
export function parseMemberStat(buf: Uint8Array, length: number): MemberStat | null {
  const close = buf.lastIndexOf(0x29, length - 1);
  if (close < 0 || close + 4 > length) return null;
  const pid = parseIntAt(buf, 0, buf.indexOf(SPACE));
  const state = String.fromCharCode(buf[close + 2] as number);
  // Fields from 4 (ppid) on, each one space after the last: keep 4, 5, 6 and 22.
  const wanted: number[] = [];
  let pos = close + 4;
  for (let field = 4; field <= 22; field++) {
    let end = pos;
    while (end < length && buf[end] !== SPACE && buf[end] !== 0x0a) end++;
    if (end === pos) return null;
    if (field <= 6 || field === 22) wanted.push(parseIntAt(buf, pos, end));
    pos = end + 1;
  }
  const [ppid, pgid, sid, startKey] = wanted as [number, number, number, number];
  if ([pid, ppid, pgid, sid, startKey].some(Number.isNaN)) return null;
  return { pid, ppid, pgid, sid, state, startKey };
}

function parseIntAt(buf: Uint8Array, start: number, end: number): number {
  if (end <= start) return NaN;
  let i = start;
  const negative = buf[i] === 0x2d;
  if (negative) i++;
  let n = 0;
  for (; i < end; i++) {
    const c = (buf[i] as number) - 0x30;
    if (c < 0 || c > 9) return NaN;
    n = n * 10 + c;
  }
  return negative ? -n : n;
}
