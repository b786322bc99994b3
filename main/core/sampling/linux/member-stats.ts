import { existsSync } from 'node:fs';
import type { MemberStat } from '../process-sampler';
import { ProcFileReader } from './proc-files';
import { parseStat } from './stat-parser';

/**
 * The reader for the 10 ms watch: only /proc/<pid>/stat (a full sampler record also reads the
 * command line and environment of every new identity, which adds up over a 1,000-member group).
 */
export function procMemberReader(): (pids: Iterable<number>) => MemberStat[] {
  const reader = new ProcFileReader();
  return (pids) => {
    const out: MemberStat[] = [];
    // Once one member is found gone, the group is likely dying: a failed open costs a thrown error,
    // so the rest are checked for existence first (the read that follows still proves identity).
    let dying = false;
    for (const pid of pids) {
      if (dying && !existsSync(`/proc/${pid}`)) continue;
      const file = reader.read(`/proc/${pid}/stat`, { singleShot: true });
      const stat = file && parseMemberStat(reader.bytes, file.length);
      if (stat && stat.pid === pid) out.push(stat);
      else dying = true;
    }
    return out;
  };
}

/** proc(5) fields 1, 3-6 and 22 of /proc/<pid>/stat; null for anything malformed. */
export function parseMemberStat(buf: Uint8Array, length: number): MemberStat | null {
  const f = parseStat(buf, length);
  return f && { pid: f.pid, ppid: f.ppid, pgid: f.pgid, sid: f.sid, state: f.state, startKey: f.startTicks };
}
