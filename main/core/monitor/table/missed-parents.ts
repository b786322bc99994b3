import type { ProcessRecord } from '../../model/process-record';
import type { ProcessSampler } from '../../sampling/process-sampler';
import type { TrackedProcess } from './tracked';

/** How far up a chain of missed ancestors is read: a tool call's shells rarely nest deeper. */
const MAX_DEPTH = 8;

/**
 * The processes `pids`, read with the parents the monitor missed: the parent of a newcomer that is
 * neither known nor in this batch. A look reads the pids the kernel's counter moved over, but a birth it
 * could not see (a pid handed out below the counter after ns_last_pid was set back, by CRIU or a test)
 * stays unknown until the next full sweep, minutes later. Its children show it: a leaked loop is found by
 * the first process it forks. Parents come first, so that they are classified before their children.
 *
 * A group's creator last read before it called setsid or setpgid (a spawn read between fork and exec) is
 * read again too: its newcomer's PGID is its pid, so the number is the creator's (a pid stays taken while
 * a group of that number lives), and the group is named with its leader as a single read would name it.
 */
export function readWithMissedParents(
  sampler: Pick<ProcessSampler, 'sampleSome'>,
  pids: Iterable<number>,
  procs: ReadonlyMap<number, Pick<TrackedProcess, 'record' | 'exitedAt'>>,
): ProcessRecord[] {
  let out = sampler.sampleSome(pids);
  let batch = out;
  let inBatch: Set<number> | null = null;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    let missing: number[] | null = null;
    for (const r of batch) {
      if (r.pgid > 2 && r.pgid !== r.pid && hasStaleGroup(procs.get(r.pgid), r.pgid)) {
        inBatch ??= new Set(out.map((o) => o.pid));
        if (!inBatch.has(r.pgid)) {
          inBatch.add(r.pgid);
          (missing ??= []).push(r.pgid);
        }
      }
      // 0: no parent; 1 and 2: init and kthreadd, which never are missed.
      if (r.ppid <= 2 || procs.has(r.ppid)) continue;
      if (procs.get(r.pid)?.record.startKey === r.startKey) continue;
      inBatch ??= new Set(out.map((o) => o.pid));
      if (inBatch.has(r.ppid)) continue;
      inBatch.add(r.ppid);
      (missing ??= []).push(r.ppid);
    }
    if (missing === null) break;
    batch = sampler.sampleSome(missing);
    if (batch.length === 0) break;
    out = [...batch, ...out];
  }
  return out;
}

function hasStaleGroup(
  creator: Pick<TrackedProcess, 'record' | 'exitedAt'> | undefined,
  pgid: number,
): boolean {
  return creator !== undefined && creator.exitedAt === null && creator.record.pgid !== pgid;
}
