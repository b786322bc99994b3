import type { ProcessRecord } from '../../model/process-record';

/**
 * Whether a re-read record shows anything other than the last one did. The sampler keeps a known
 * process's argv and markers objects while it does not read them again, so identity is enough there.
 */
export function valuesDiffer(a: ProcessRecord, b: ProcessRecord): boolean {
  return (
    a.ppid !== b.ppid ||
    a.pgid !== b.pgid ||
    a.sid !== b.sid ||
    a.uid !== b.uid ||
    a.state !== b.state ||
    a.startedAt !== b.startedAt ||
    a.cpuTimeMs !== b.cpuTimeMs ||
    a.childCpuTimeMs !== b.childCpuTimeMs ||
    a.rssBytes !== b.rssBytes ||
    a.footprintBytes !== b.footprintBytes ||
    a.name !== b.name ||
    a.argv !== b.argv ||
    a.tty !== b.tty ||
    a.markers !== b.markers ||
    a.environReadable !== b.environReadable
  );
}
