import { bsdInfo, type BsdInfoFields, kinfoProc, procArgs2, shortBsdInfo, taskInfo } from './darwin-buffers';
import type { FakeLibSystem } from './fake-libsystem';

export interface PutProcess {
  pid: number;
  ppid?: number;
  comm?: string;
  argv?: string[];
  uid?: number;
  startSec?: number;
  zombie?: boolean;
}

/** Puts one process in the stand-in's table, its own group and session leader, with an empty environment. */
export function putProcess(lib: FakeLibSystem, p: PutProcess): void {
  const argv = p.argv ?? ['sh'];
  const fields: BsdInfoFields = {
    status: p.zombie ? 5 : 2,
    pid: p.pid,
    ppid: p.ppid ?? 1,
    uid: p.uid ?? 501,
    comm: p.comm ?? 'sh',
    name: p.comm ?? 'sh',
    pgid: p.pid,
    startSec: p.startSec ?? 100,
    startUsec: 0,
  };
  const bsd = bsdInfo(fields);
  lib.processes.set(p.pid, {
    taskAllInfo: Buffer.concat([
      bsd,
      taskInfo({ residentBytes: 1, userTicks: 0, systemTicks: 0, runningThreads: 0 }),
    ]),
    bsdInfo: bsd,
    shortBsdInfo: shortBsdInfo(fields),
    kinfoProc: kinfoProc({ pid: p.pid, stat: fields.status, startSec: fields.startSec, startUsec: 0 }),
    procArgs2: procArgs2(argv[0] === 'sh' ? '/bin/sh' : argv[0]!, argv, []),
    sid: p.pid,
  });
}
