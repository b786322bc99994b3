import type { HookSampler } from './hook-sampler';
import { AT_CLKTCK, auxvValue } from './linux/auxv';
import { HookProcReader } from './linux/hook-proc-reader';
import { listeningTcpPorts } from './linux/listening-ports';
import { readPidMax, uptimeMsOf } from './linux/pid-counter';
import { ProcFileReader } from './linux/proc-files';
import { readTcpListenerPorts } from './linux/tcp-listener-diag';

/** What a running service reads to answer hooks on Linux (service-hook-context.ts). */
export interface ServiceHookReads {
  /** The hook's own one-shot reader: records exactly as the one-shot hook reads them. */
  sampler: Required<HookSampler>;
  /** Milliseconds per clock tick, the unit of ProcessRecord.startKey. */
  tickMs: number;
  pidMax: number;
  /** /proc/uptime in milliseconds: boot time, as /proc/<pid>/stat's starttime counts it. */
  uptimeMs: () => number;
  /** A leftover's TCP listeners in this namespace, from one sock_diag dump of listeners, not the tables. */
  tcpPorts: (pids: number[]) => Map<number, number[]>;
}

export function serviceHookReads(markerKeys: ReadonlySet<string>, procRoot = '/proc'): ServiceHookReads {
  return {
    sampler: new HookProcReader(markerKeys, procRoot),
    tickMs: 1000 / (auxvValue(AT_CLKTCK) ?? 100),
    pidMax: readPidMax(procRoot),
    uptimeMs: procUptimeMs(procRoot),
    tcpPorts: (pids) => listeningTcpPorts(pids, procRoot, readTcpListenerPorts),
  };
}

/** /proc/uptime in milliseconds, read through one kept reader. */
function procUptimeMs(procRoot: string): () => number {
  const uptime = new ProcFileReader();
  return () => {
    const read = uptime.read(`${procRoot}/uptime`, { singleShot: true });
    if (!read) throw new Error(`cannot read ${procRoot}/uptime`);
    const ms = uptimeMsOf(uptime.bytes.toString('latin1', 0, read.length));
    if (ms === null) throw new Error(`${procRoot}/uptime is not a number`);
    return ms;
  };
}
