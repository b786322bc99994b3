import type { ProcessRecord, ProcessSampler, SamplerOptions } from '../process-record';
import { type LibSystem, loadLibSystem } from './libsystem';
import {
  type BsdInfo,
  type TaskInfo,
  decodeBsdInfo,
  decodeKinfoStartMicros,
  decodeShortBsdInfo,
  decodeTaskInfo,
  machTicksToMs,
  stateLetter,
} from './proc-info-decoders';
import {
  BSDINFO_SIZE,
  CTL_KERN,
  KERN_ARGMAX,
  KERN_PROC,
  KERN_PROC_PID,
  KERN_PROCARGS2,
  KINFO_PROC_SIZE,
  PROC_FLAG_SLEADER,
  PROC_PIDT_SHORTBSDINFO,
  PROC_PIDTASKALLINFO,
  PROC_PIDTBSDINFO,
  SHORTBSDINFO_SIZE,
  SZOMB,
  TASKALLINFO_SIZE,
} from './proc-info-layout';
import { decodeProcArgs2 } from './procargs-decoder';
import { forgetMissing, readEach } from '../read-each';

interface IdentityCache {
  startKey: number;
  /** Name when argv was read: a change means the process exec'd and argv must be read again. */
  name: string;
  argv: string[];
  markers: Record<string, string>;
  environReadable: boolean;
  /** Last session id seen, for zombies (getsid fails for them). */
  sid: number;
}

const DEFAULT_ARGMAX = 1024 * 1024;

/**
 * Reads the macOS process table through libproc and sysctl, one process at a time, without spawning.
 * Without root, proc_pidinfo's full flavors and KERN_PROCARGS2 answer only for the caller's own
 * processes; other users' processes still appear, from the short BSD info and kinfo_proc, with their
 * CPU time and memory unknown (0) and argv empty.
 */
export class DarwinSampler implements ProcessSampler {
  readonly platform = 'darwin' as const;
  private readonly lib: LibSystem;
  private readonly cache = new Map<number, IdentityCache>();
  private readonly ttyNames = new Map<number, string | null>();
  private readonly timebase: { numer: number; denom: number };
  private readonly info = Buffer.alloc(TASKALLINFO_SIZE);
  private readonly kinfo = Buffer.alloc(KINFO_PROC_SIZE);
  private readonly args: Buffer;
  private pids = new Int32Array(4096);

  constructor(
    private readonly options: SamplerOptions,
    lib?: LibSystem,
  ) {
    // libSystem (and koffi) load only here, so importing this module loads nothing native.
    this.lib = lib ?? loadLibSystem();
    this.timebase = this.lib.timebase();
    this.args = Buffer.alloc(this.readArgMax());
  }

  listPids(): number[] {
    const pids = this.listInto((buf) => this.lib.procListAllPids(buf));
    if (!pids) throw new Error(`proc_listallpids failed (errno ${this.lib.errno()})`);
    return pids;
  }

  childrenOf(pid: number): number[] | null {
    const children = this.listInto((buf) => this.lib.procListChildPids(pid, buf));
    if (children === null || children.length > 0) return children;
    // No children and no such process look alike: the short BSD info tells them apart.
    const alive = this.lib.procPidInfo(
      pid,
      PROC_PIDT_SHORTBSDINFO,
      1,
      this.info.subarray(0, SHORTBSDINFO_SIZE),
    );
    return alive >= SHORTBSDINFO_SIZE ? [] : null;
  }

  /** Runs a libproc pid-list call, growing the buffer while the answer may have been cut short. */
  private listInto(call: (buf: Int32Array) => number): number[] | null {
    for (;;) {
      const n = call(this.pids);
      if (n < 0) return null;
      if (n < this.pids.length) return Array.from(this.pids.subarray(0, n));
      this.pids = new Int32Array(this.pids.length * 2);
    }
  }

  sampleAll(): ProcessRecord[] {
    const pids = this.listPids();
    const records = this.sampleSome(pids);
    if (this.cache.size > records.length)
      forgetMissing(this.cache.keys(), pids, (pid) => this.cache.delete(pid));
    return records;
  }

  sampleSome(pids: Iterable<number>): ProcessRecord[] {
    return readEach(pids, (pid) => this.readOne(pid));
  }

  /** One process, or null when it vanished (never an error: processes exit while we read). */
  readOne(pid: number): ProcessRecord | null {
    const read = this.readInfo(pid);
    if (!read) {
      this.cache.delete(pid);
      return null;
    }
    const { bsd, task, startMicros } = read;
    const zombie = bsd.status === SZOMB;

    let known = this.cache.get(pid);
    // A zombie keeps what was read while it lived (its name may also come from the shorter comm).
    if (!known || known.startKey !== startMicros || (known.name !== bsd.name && !zombie)) {
      known = { startKey: startMicros, name: bsd.name, sid: -1, ...this.readArgs(pid, zombie) };
      this.cache.set(pid, known);
    }
    // getsid(0) means "my own session": the kernel's pid 0 has none.
    const sid = pid === 0 ? 0 : this.lib.getsid(pid);
    if (sid >= 0) known.sid = sid;
    else if (bsd.flags & PROC_FLAG_SLEADER) known.sid = pid;
    else if (!zombie) {
      // Gone between proc_pidinfo and getsid.
      this.cache.delete(pid);
      return null;
    }

    return {
      pid,
      ppid: bsd.ppid,
      pgid: bsd.pgid,
      sid: known.sid,
      uid: bsd.uid,
      state: stateLetter(bsd.status, task ? task.runningThreads : null),
      startKey: startMicros,
      startedAt: Math.floor(startMicros / 1000),
      cpuTimeMs: task ? machTicksToMs(task.cpuMachTicks, this.timebase.numer, this.timebase.denom) : 0,
      rssBytes: task ? task.residentBytes : 0,
      name: bsd.name,
      argv: known.argv,
      tty: this.ttyName(bsd.ttyDev),
      markers: known.markers,
      environReadable: known.environReadable,
    };
  }

  /**
   * The richest info the kernel grants: BSD + task info for our own processes (or as root), BSD info
   * alone for zombies (arg 1 asks for them), and for other users' processes the short BSD info plus
   * the start time from kinfo_proc. Null when the pid is gone.
   */
  private readInfo(pid: number): { bsd: BsdInfo; task: TaskInfo | null; startMicros: number } | null {
    const info = this.info;
    if (this.lib.procPidInfo(pid, PROC_PIDTASKALLINFO, 0, info) >= TASKALLINFO_SIZE) {
      const bsd = decodeBsdInfo(info);
      if (bsd?.startMicros != null && bsd.pid === pid) {
        return { bsd, task: decodeTaskInfo(info, BSDINFO_SIZE), startMicros: bsd.startMicros };
      }
    }
    if (this.lib.procPidInfo(pid, PROC_PIDTBSDINFO, 1, info.subarray(0, BSDINFO_SIZE)) >= BSDINFO_SIZE) {
      const bsd = decodeBsdInfo(info);
      if (bsd?.startMicros != null && bsd.pid === pid)
        return { bsd, task: null, startMicros: bsd.startMicros };
    }
    if (
      this.lib.procPidInfo(pid, PROC_PIDT_SHORTBSDINFO, 1, info.subarray(0, SHORTBSDINFO_SIZE)) <
      SHORTBSDINFO_SIZE
    ) {
      return null;
    }
    const bsd = decodeShortBsdInfo(info);
    if (!bsd || bsd.pid !== pid) return null;
    const mib = Int32Array.of(CTL_KERN, KERN_PROC, KERN_PROC_PID, pid);
    if (this.lib.sysctl(mib, this.kinfo) < KINFO_PROC_SIZE) return null;
    const startMicros = decodeKinfoStartMicros(this.kinfo, pid);
    return startMicros === null ? null : { bsd, task: null, startMicros };
  }

  private readArgs(
    pid: number,
    zombie: boolean,
  ): Pick<IdentityCache, 'argv' | 'markers' | 'environReadable'> {
    const unreadable = { argv: [], markers: {}, environReadable: false };
    // A zombie has no address space left to read argv from.
    if (zombie) return unreadable;
    const length = this.lib.sysctl(Int32Array.of(CTL_KERN, KERN_PROCARGS2, pid), this.args);
    if (length < 0) return unreadable;
    return decodeProcArgs2(this.args, length, this.options.markerKeys) ?? unreadable;
  }

  private readArgMax(): number {
    const buf = Buffer.alloc(4);
    const n = this.lib.sysctl(Int32Array.of(CTL_KERN, KERN_ARGMAX), buf);
    const argmax = n === 4 ? buf.readInt32LE(0) : 0;
    // procargs can exceed ARG_MAX by the exec path and apple strings: leave room.
    return (argmax > 0 ? argmax : DEFAULT_ARGMAX) + 64 * 1024;
  }

  private ttyName(dev: number | null): string | null {
    if (dev === null) return null;
    let name = this.ttyNames.get(dev);
    if (name === undefined) {
      name = this.lib.devname(dev);
      this.ttyNames.set(dev, name);
    }
    return name;
  }
}
