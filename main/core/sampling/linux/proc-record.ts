import type { ProcessRecord } from '../../model/process-record';
import type { IdentityCache } from './process-identity';
import type { StatFields } from './stat-parser';

/** What turns stat's ticks and pages into a record's times and bytes, read once per reader. */
export interface ProcUnits {
  tickMs: number;
  pageSize: number;
  bootTimeMs: number;
}

/**
 * The one ProcessRecord built from /proc: a stat just parsed and the identity read with it (argv, owner,
 * markers). The monitor's sampler and the hook's one-shot reader both build it here, so a group id
 * built from it is the same whichever read it.
 */
export function procRecord(
  pid: number,
  f: StatFields,
  id: Pick<IdentityCache, 'uid' | 'argv' | 'markers' | 'environReadable'>,
  tty: string | null,
  units: ProcUnits,
): ProcessRecord {
  return {
    pid,
    ppid: f.ppid,
    pgid: f.pgid,
    sid: f.sid,
    uid: id.uid,
    state: f.state,
    startKey: f.startTicks,
    startedAt: Math.round(units.bootTimeMs + f.startTicks * units.tickMs),
    cpuTimeMs: (f.utimeTicks + f.stimeTicks) * units.tickMs,
    childCpuTimeMs: f.childTicks * units.tickMs,
    rssBytes: Math.max(0, f.rssPages) * units.pageSize,
    threads: f.threads,
    name: f.name,
    argv: id.argv,
    tty,
    markers: id.markers,
    environReadable: id.environReadable,
  };
}
