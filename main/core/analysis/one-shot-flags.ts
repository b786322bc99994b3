import type { ProcessFlag } from '../../../shared/model';
import type { ProcessRecord } from '../model/process-record';
import type { Attribution } from './attribution';
import type { ProcessAnnotation } from './grouping';
import { isOrphan } from './orphans';
import { looksRunawayNow, type RunawayPolicy } from './runaway';

/**
 * Flags from a single look at the table (no history): structural orphans, processes that left their
 * tool call's group with setsid, and a demand for CPU that is high now and has been high for the
 * process's life (looksRunawayNow).
 */
export function annotateOneShot(
  records: readonly ProcessRecord[],
  attributions: ReadonlyMap<number, Attribution>,
  load: {
    /** The share of a core it received over the moment between the two samples. */
    cpu: (r: ProcessRecord) => number | null;
    /** What it demanded over that moment (runawayLoad). */
    demand: (r: ProcessRecord) => number | null;
  },
  policy: RunawayPolicy,
  now: number,
): Map<number, ProcessAnnotation> {
  const byPid = new Map<number, ProcessRecord>();
  for (const r of records) if (r.state !== 'Z') byPid.set(r.pid, r);
  const out = new Map<number, ProcessAnnotation>();
  for (const r of records) {
    const a = attributions.get(r.pid);
    const parent = byPid.get(r.ppid);
    const flags: ProcessFlag[] = [];
    const annotation: ProcessAnnotation = { cpuPercent: load.cpu(r), flags };
    if (
      isOrphan({
        attributed: a !== undefined,
        isAgent: a?.isAgent ?? false,
        ppid: r.ppid,
        parent,
        parentAttributed: parent !== undefined && attributions.has(parent.pid),
        observedReparent: false,
      })
    ) {
      flags.push('orphan');
    }
    if (
      a &&
      !a.isAgent &&
      looksRunawayNow(load.demand(r), r.cpuTimeMs, now - r.startedAt, policy, r.runQueueWaitMs)
    ) {
      flags.push('runaway');
    }
    const parentAttribution = parent ? attributions.get(parent.pid) : undefined;
    if (
      a &&
      parent &&
      parentAttribution &&
      !parentAttribution.isAgent &&
      r.sid === r.pid &&
      parent.sid !== r.sid
    ) {
      flags.push('escaped');
      annotation.originGroup = { pgid: parent.pgid, sid: parent.sid };
    }
    out.set(r.pid, annotation);
  }
  return out;
}
