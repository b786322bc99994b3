import type { ListeningPort } from '../../../../shared/model';
import type { ExitWatchCoverage, ProcessSampler, SamplerOptions } from '../process-sampler';
import type { ProcessRecord } from '../../model/process-record';
import { NO_EXIT_WAIT, type ExitWaitState } from '../threaded-exit-watch';
import { forgetMissing, readEach } from '../read-each';
import { readArgMax, tickConverter } from './darwin-host-facts';
import { DarwinProcessFiles } from './darwin-process-files';
import { KqueueExitWatch } from './kqueue-exit-watch';
import { type LibSystem, loadLibSystem } from './libsystem';
import { stateLetter } from './proc-info-decoders';
import { CTL_KERN, KERN_PROCARGS2, SZOMB } from './proc-info-layout';
import { ProcInfoReader } from './proc-info-reader';
import { decodeProcArgs2 } from './procargs-decoder';

interface IdentityCache {
  startKey: number;
  /** Name when argv was read: a change means the process exec'd and argv must be read again. */
  name: string;
  argv: string[];
  markers: Record<string, string>;
  environReadable: boolean;
  /** Last session id seen, for zombies (getsid fails for them); null until one was seen. */
  sid: number | null;
  /** The kernel refused this identity's task info with EPERM (another user's process): do not ask again. */
  denied: boolean;
}

/**
 * Reads the macOS process table through libproc and sysctl, one process at a time, without spawning.
 * Without root, proc_pidinfo's full flavors, proc_pid_rusage and KERN_PROCARGS2 answer only for the
 * caller's own processes; other users' processes still appear, from the short BSD info and kinfo_proc,
 * with their CPU time and memory unknown (null) and argv empty. A refusal is remembered for the
 * process's identity (pid + start time), so a sweep does not ask again what the kernel refused.
 */
export class DarwinSampler implements ProcessSampler {
  readonly platform = 'darwin' as const;
  private readonly lib: LibSystem;
  private readonly cache = new Map<number, IdentityCache>();
  private readonly ttyNames = new Map<number, string | null>();
  private readonly ticksToMs: (ticks: number) => number;
  private readonly args: Buffer;
  private readonly procInfo: ProcInfoReader;
  private readonly files: DarwinProcessFiles;
  private pids = new Int32Array(4096);
  private exitWatch: KqueueExitWatch | null = null;

  constructor(
    private readonly options: SamplerOptions,
    lib?: LibSystem,
  ) {
    // libSystem (and koffi) load only here, so importing this module loads nothing native.
    this.lib = lib ?? loadLibSystem();
    this.ticksToMs = tickConverter(this.lib);
    // KERN_PROCARGS2 refuses a buffer larger than kern.argmax (+ the int argc) with EINVAL: ask with exactly argmax.
    this.args = Buffer.alloc(readArgMax(this.lib));
    this.procInfo = new ProcInfoReader(this.lib);
    this.files = new DarwinProcessFiles(this.lib, (pid) => this.cache.get(pid)?.denied === true);
  }

  listPids(): number[] {
    const pids = this.listInto((buf) => this.lib.procListAllPids(buf));
    // libproc answers 0, not -1, when the call failed (libproc.c proc_listpids); a real table is never
    // empty (launchd and this process are in it), so 0 is the failure, never "every process exited".
    if (!pids || pids.length === 0) throw new Error(`proc_listallpids failed (errno ${this.lib.errno()})`);
    return pids;
  }

  childrenOf(pid: number): number[] | null {
    const children = this.listInto((buf) => this.lib.procListChildPids(pid, buf));
    if (children === null || children.length > 0) return children;
    // No children and no such process look alike: the short BSD info tells them apart.
    return this.procInfo.exists(pid) ? [] : null;
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

  /** Follows these processes (pid → startKey) for their exit and forks through one kqueue (EVFILT_PROC). */
  watchExits(targets: ReadonlyMap<number, number>): ExitWatchCoverage {
    this.exitWatch ??= new KqueueExitWatch(this.lib, (pid) => this.startKeyNow(pid));
    return this.exitWatch.follow(targets);
  }

  exitedWatched(): readonly number[] {
    return this.exitWatch ? this.exitWatch.exited() : [];
  }

  forkedWatched(): readonly number[] {
    return this.exitWatch ? this.exitWatch.forked() : [];
  }

  waitForExits(onExit: () => void): (() => void) | null {
    this.exitWatch ??= new KqueueExitWatch(this.lib, (pid) => this.startKeyNow(pid));
    const watch = this.exitWatch;
    return watch.waitInThread(onExit) ? () => watch.stopWaiting() : null;
  }

  /** The exit watch, for tests: whether its worker thread waits, and when it stopped. */
  get exitWatchState(): ExitWaitState {
    return this.exitWatch?.threadState ?? NO_EXIT_WAIT;
  }

  close(): void {
    this.exitWatch?.close();
  }

  readCwd(pids: Iterable<number>): Map<number, string | null> {
    return this.files.readCwd(pids);
  }

  listeningPorts(pids: Iterable<number>): Map<number, ListeningPort[]> {
    return this.files.listeningPorts(pids);
  }

  private startKeyNow(pid: number): number | null {
    const other = this.procInfo.readOthers(pid);
    return other && other.bsd.status !== SZOMB ? other.startMicros : null;
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
    const cached = this.cache.get(pid);
    const read = this.procInfo.read(pid, cached);
    if (!read) {
      this.cache.delete(pid);
      return null;
    }
    const { bsd, task, startMicros, denied } = read;
    const zombie = bsd.status === SZOMB;

    let known = cached;
    // A zombie keeps what was read while it lived (its name may also come from the shorter comm).
    if (!known || known.startKey !== startMicros || (known.name !== bsd.name && !zombie)) {
      const args = denied ? { argv: [], markers: {}, environReadable: false } : this.readArgs(pid, zombie);
      known = { startKey: startMicros, name: bsd.name, sid: null, denied, ...args };
      this.cache.set(pid, known);
    }
    known.denied = denied;
    const sid = this.procInfo.sessionOf(pid, bsd.pgid, bsd.flags, zombie);
    if (sid !== null) known.sid = sid;
    else if (!zombie) {
      // Gone between proc_pidinfo and getsid.
      this.cache.delete(pid);
      return null;
    }
    if (known.sid === null) {
      // A zombie first seen whose group leader is gone too: its session cannot be known on macOS.
      // Leave it out rather than invent a session id (see ProcessRecord.sid).
      return null;
    }
    const usage = task && !zombie ? this.procInfo.usageOf(pid) : null;
    const footprint = usage?.footprint ?? null;
    const waitTicks = usage?.waitTicks ?? null;
    const childTicks = usage?.childTicks ?? null;

    return {
      pid,
      ppid: bsd.ppid,
      pgid: bsd.pgid,
      sid: known.sid,
      uid: bsd.uid,
      state: stateLetter(bsd.status, task ? task.runningThreads : null),
      startKey: startMicros,
      startedAt: Math.floor(startMicros / 1000),
      cpuTimeMs: task ? this.ticksToMs(task.cpuMachTicks) : null,
      ...(childTicks === null ? {} : { childCpuTimeMs: this.ticksToMs(childTicks) }),
      rssBytes: task ? task.residentBytes : null,
      ...(footprint === null ? {} : { footprintBytes: footprint }),
      ...(waitTicks === null ? {} : { runQueueWaitMs: this.ticksToMs(waitTicks) }),
      name: bsd.name,
      argv: known.argv,
      tty: this.ttyName(bsd.ttyDev),
      markers: known.markers,
      environReadable: known.environReadable,
    };
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
