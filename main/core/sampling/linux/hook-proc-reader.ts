import { readFileSync, statSync } from 'node:fs';
import { AT_CLKTCK, AT_PAGESZ, auxvValue } from './auxv';
import { argvFromCmdline, pickEnv } from './nul-fields';
import { parseStat } from './stat-parser';
import type { ProcessRecord } from '../../model/process-record';
import type { ProcessSampler } from '../process-sampler';
import { listProcPids } from './list-proc-pids';
import { lastPidOf, pidsBornSince, readBootTimeMs, readPidMax } from './pid-counter';

/** What a hook reads of the process table: a few pids, the pid list, and the pids born since a look. */
export type HookSampler = Pick<ProcessSampler, 'sampleSome' | 'listPids' | 'newPidsSince'>;

/**
 * The hook's own one-shot /proc reader (Linux). The monitor's LinuxSampler keeps descriptors open
 * for re-reads and loads native code (pidfds, socket peers) a hook never uses: loading it cost a hook
 * ~100 ms before reading anything. This reads each file once, with the same parsers, so records (and
 * the group ids built from them) are the ones the running Corral shows.
 */
export class HookProcReader implements HookSampler {
  private readonly tickMs: number;
  private readonly pageSize: number;
  private readonly bootTimeMs: number;
  private pidMax: number | undefined;

  constructor(
    private readonly markerKeys: ReadonlySet<string>,
    private readonly procRoot = '/proc',
  ) {
    this.tickMs = 1000 / (auxvValue(AT_CLKTCK) ?? 100);
    this.pageSize = auxvValue(AT_PAGESZ) ?? 4096;
    this.bootTimeMs = readBootTimeMs(procRoot);
  }

  newPidsSince(cursor: number | null): { cursor: number; pids: number[] | null } {
    let last = -1;
    try {
      const loadavg = readFileSync(`${this.procRoot}/loadavg`);
      last = lastPidOf(loadavg, loadavg.length);
    } catch {
      // No loadavg: the caller lists the table instead.
    }
    this.pidMax ??= readPidMax(this.procRoot);
    return pidsBornSince(cursor, last, this.pidMax);
  }

  listPids(): number[] {
    return listProcPids(this.procRoot);
  }

  sampleSome(pids: Iterable<number>): ProcessRecord[] {
    const records: ProcessRecord[] = [];
    for (const pid of pids) {
      const r = this.readOne(pid);
      if (r) records.push(r);
    }
    return records;
  }

  /** One process, or null when it is gone (or is a thread, or unreadable): processes exit while we read. */
  private readOne(pid: number): ProcessRecord | null {
    const base = `${this.procRoot}/${pid}`;
    try {
      const stat = readFileSync(`${base}/stat`);
      const f = parseStat(stat, stat.length);
      // A pid from the kernel's counter may be a thread: /proc/<tid> answers, but it is no process.
      if (!f || f.pid !== pid || f.exitSignal === -1) return null;
      const cmdline = readFileSync(`${base}/cmdline`);
      // The owner of /proc/<pid>/cmdline is the process's effective uid.
      const uid = statSync(`${base}/cmdline`).uid;
      let markers: Record<string, string> = {};
      let environReadable = false;
      if (this.markerKeys.size > 0) {
        try {
          const environ = readFileSync(`${base}/environ`);
          environReadable = true;
          markers = pickEnv(environ, environ.length, this.markerKeys);
        } catch {
          // Another user's process: no markers to read.
        }
      }
      return {
        pid,
        ppid: f.ppid,
        pgid: f.pgid,
        sid: f.sid,
        uid,
        state: f.state,
        startKey: f.startTicks,
        startedAt: Math.round(this.bootTimeMs + f.startTicks * this.tickMs),
        cpuTimeMs: (f.utimeTicks + f.stimeTicks) * this.tickMs,
        rssBytes: Math.max(0, f.rssPages) * this.pageSize,
        name: f.name,
        argv: argvFromCmdline(cmdline, cmdline.length),
        tty: null,
        markers,
        environReadable,
      };
    } catch {
      return null;
    }
  }
}
