import { AT_CLKTCK, AT_PAGESZ, auxvValue } from './auxv';
import { rereadExecWindow, sleepBeforeReread, type BeforeReread } from './exec-window';
import { ProcFileReader } from './proc-files';
import { readIdentity } from './process-identity';
import { parseStat, type StatFields } from './stat-parser';
import { procRecord, type ProcUnits } from './proc-record';
import type { ProcessRecord } from '../../model/process-record';
import type { HookSampler } from '../hook-sampler';
import { listProcPids } from './list-proc-pids';
import { lastPidOf, pidsBornSince, readBootTimeMs, readPidMax, uptimeMsOf } from './pid-counter';

/**
 * The hook's own one-shot /proc reader (Linux). The monitor's LinuxSampler keeps descriptors open
 * for re-reads and loads native code (pidfds, socket peers) a hook never uses: loading it cost a hook
 * ~100 ms before reading anything. This reads each file once, with the same parsers, so records (and
 * the group ids built from them) are the ones the running Corral shows, into one reused buffer: the
 * running service answers every hook with the same reader, and readFileSync's fresh 64 KiB buffers
 * (a /proc file has no size to go by) were most of its CPU per answer.
 */
export class HookProcReader implements HookSampler {
  private readonly units: ProcUnits;
  private knownPidMax: number | undefined;
  private readonly files = new ProcFileReader();

  constructor(
    private readonly markerKeys: ReadonlySet<string>,
    private readonly procRoot = '/proc',
    /** Before each re-read of a process read inside execve's window (a short sleep; tests settle it). */
    private readonly beforeReread: BeforeReread = sleepBeforeReread,
  ) {
    // No getconf fallback: a hook spawns nothing.
    this.units = {
      tickMs: 1000 / (auxvValue(AT_CLKTCK) ?? 100),
      pageSize: auxvValue(AT_PAGESZ) ?? 4096,
      bootTimeMs: readBootTimeMs(procRoot),
    };
  }

  /** Milliseconds per clock tick, the unit of ProcessRecord.startKey here. */
  get startKeyMs(): number {
    return this.units.tickMs;
  }

  /** Now in clock ticks since boot (/proc/uptime), as /proc/<pid>/stat counts a start. */
  nowKey(): number {
    const read = this.files.read(`${this.procRoot}/uptime`, { singleShot: true });
    const ms = read && uptimeMsOf(this.files.bytes.toString('latin1', 0, read.length));
    if (!ms) throw new Error(`cannot read ${this.procRoot}/uptime`);
    return Math.floor(ms / this.units.tickMs);
  }

  newPidsSince(cursor: number | null): { cursor: number; pids: number[] | null } {
    // No loadavg: the caller lists the table instead.
    const loadavg = this.files.read(`${this.procRoot}/loadavg`, { singleShot: true });
    const last = loadavg === null ? -1 : lastPidOf(this.files.bytes, loadavg.length);
    return pidsBornSince(cursor, last, this.pidMax());
  }

  pidMax(): number {
    return (this.knownPidMax ??= readPidMax(this.procRoot));
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
    // A process read inside execve's window shows no markers yet: read again, or it is missed as a leftover.
    return rereadExecWindow(records, (pid) => this.readOne(pid), this.beforeReread);
  }

  startKeyOf(pid: number): number | null {
    return this.readStat(pid)?.startTicks ?? null;
  }

  /** A process's stat, or null when there is no process of that pid (gone, a thread, unreadable). */
  private readStat(pid: number): StatFields | null {
    const stat = this.files.read(`${this.procRoot}/${pid}/stat`, { singleShot: true });
    const f = stat && parseStat(this.files.bytes, stat.length);
    // A pid from the kernel's counter may be a thread: /proc/<tid> answers, but it is no process.
    return f && f.pid === pid && f.exitSignal !== -1 ? f : null;
  }

  /** One process, or null when it is gone (or is a thread, or unreadable): processes exit while we read. */
  private readOne(pid: number): ProcessRecord | null {
    const f = this.readStat(pid);
    if (!f) return null;
    const id = readIdentity(this.files, `${this.procRoot}/${pid}`, f.startTicks, f.name, this.markerKeys);
    if (!id) return null;
    return procRecord(pid, f, id, null, this.units);
  }
}
