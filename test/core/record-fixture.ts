import type { ProcessRecord } from '../../main/core/model/process-record';

/** A process record for pure-function tests (decisions, not the OS: those are tested on real processes). */
export function rec(fields: Partial<ProcessRecord> & { pid: number }): ProcessRecord {
  return {
    ppid: 1,
    pgid: fields.pid,
    sid: fields.pid,
    uid: 1000,
    state: 'S',
    startKey: fields.pid * 10,
    startedAt: 1_700_000_000_000 + fields.pid,
    cpuTimeMs: 0,
    rssBytes: 1024,
    name: 'sleep',
    argv: ['sleep', '600'],
    tty: null,
    markers: {},
    environReadable: true,
    ...fields,
  };
}
