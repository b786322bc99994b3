import { closeSync } from 'node:fs';
import type { ListeningPort } from '../../../../shared/model';
import type { HeldPipe } from '../../model/held-pipe';
import type {
  ExitWatchCoverage,
  HeldPipeQuery,
  MemberStat,
  ProcessSampler,
  SamplerOptions,
} from '../process-sampler';
import type { ProcessRecord } from '../../model/process-record';
import { findHeldPipes } from './find-held-pipes';
import { heldPipeLinks } from './held-pipe-links';
import { procMemberReader } from './member-stats';
import { NO_EXIT_WAIT, type ExitWaitState } from '../threaded-exit-watch';
import { forgetMissing, readEach } from '../read-each';
import { ProcReadFailed, readFailureOf } from '../read-failure';
import { UnreadPids } from '../unread-pids';
import { AT_CLKTCK, AT_PAGESZ, auxvValue } from './auxv';
import { getconf } from './getconf';
import { KeptProcFds } from './kept-proc-fds';
import { ListeningPortReader } from './listening-ports';
import { readCwds } from './proc-cwd';
import { PidfdExitWatch } from './pidfd-exit-watch';
import { ProcFileReader, procHasPid } from './proc-files';
import { readInExecWindow } from '../../analysis/exec-window';
import { keepText, readIdentity, sameText, ttyOf, type IdentityCache } from './process-identity';
import { runDelayMs, SchedstatProbe } from './schedstat-probe';
import { isZombie, parseStat, statState } from './stat-parser';
import { procRecord, type ProcUnits } from './proc-record';
import { listProcPids } from './list-proc-pids';
import { PendingBirths } from './pending-births';
import { counterMatchesProc, lastPidOf, pidsBornSince, readBootTimeMs, readPidMax } from './pid-counter';

/**
 * A listing of /proc misses a process being born (its pid allocated, not yet attached: see
 * pending-births), so the first look after one probes this many pids allocated before it again.
 */
const LISTING_OVERLAP = 16;

/** Reads the Linux process table straight from /proc. */
export class LinuxSampler implements ProcessSampler {
  readonly platform = 'linux' as const;
  private readonly reader = new ProcFileReader();
  private readonly cache = new Map<number, IdentityCache>();
  /** Kept /proc/<pid>/stat and children descriptors, re-read with pread (kept-proc-fds.ts). */
  private readonly fds: KeptProcFds;
  private readonly lastChildren = new Map<number, { text: string; list: number[] }>();
  private loadavgFd: number | null = null;
  /** The pid counter when the last full sweep began; null: the next sweep lists /proc. */
  private sweepCursor: number | null = null;
  private counterUsable: boolean | null = null;
  private exitWatch: PidfdExitWatch | null = null;
  private portReader: ListeningPortReader | null = null;
  private readonly births = new PendingBirths();
  private readonly probe: SchedstatProbe;
  /** Parents found alive (or not) during the current batch of reads. */
  private readonly parentsAlive = new Map<number, boolean>();
  private memberRead: ((pids: Iterable<number>) => MemberStat[]) | null = null;
  /** Pids a read could not look at for want of descriptors: read again at every look. */
  private readonly unread = new UnreadPids();
  private readonly units: ProcUnits;
  private readonly pidMax: number;

  constructor(
    private readonly options: SamplerOptions,
    private readonly procRoot = '/proc',
  ) {
    this.units = {
      tickMs: 1000 / (auxvValue(AT_CLKTCK) ?? getconf('CLK_TCK', 100)),
      pageSize: auxvValue(AT_PAGESZ) ?? getconf('PAGESIZE', 4096),
      bootTimeMs: readBootTimeMs(procRoot),
    };
    this.pidMax = readPidMax(procRoot);
    this.probe = new SchedstatProbe(procRoot);
    this.fds = new KeptProcFds(procRoot, this.reader, (pid) => this.forget(pid));
  }

  newPidsSince(cursor: number | null): { cursor: number; pids: number[] | null } {
    this.loadavgFd ??= ProcFileReader.openIfCan(`${this.procRoot}/loadavg`);
    const length = this.loadavgFd === null ? null : this.reader.reread(this.loadavgFd);
    const last = length === null ? -1 : lastPidOf(this.reader.bytes, length);
    if (last > 0) this.options.onPidCounter?.(last);
    const born = pidsBornSince(cursor, last, this.pidMax);
    // A first look, or a counter that jumped too far or went back (ns_last_pid): the caller lists instead.
    if (born.pids === null && last > 0 && born.cursor > LISTING_OVERLAP) born.cursor -= LISTING_OVERLAP;
    if (born.pids !== null)
      born.pids = this.unread.withUnread(this.births.look(born.pids, performance.now()));
    return born;
  }

  /** Throws ProcReadFailed when /proc could not be listed (out of descriptors): never a short list. */
  listPids(): number[] {
    let pids: number[];
    try {
      pids = listProcPids(this.procRoot);
    } catch (err) {
      throw this.unread.unlistable(readFailureOf(err, this.procRoot));
    }
    this.unread.listed();
    return pids;
  }

  unreadPids(): ReadonlySet<number> {
    return this.unread.set;
  }

  get readFailure(): string | null {
    return this.unread.failure;
  }

  /** Unchanged child lists come back as the same array, so a caller can skip them by identity. */
  childrenOf(pid: number): number[] | null {
    let length: number | null;
    try {
      length = this.fds.readChildren(pid);
    } catch (err) {
      if (!(err instanceof ProcReadFailed)) throw err;
      // Not looked at: the list as last read stands, and the parent is read again at the next look.
      this.unread.note(pid, err);
      return this.lastChildren.get(pid)?.list ?? [];
    }
    if (length === null) {
      this.lastChildren.delete(pid);
      return null;
    }
    const text = this.reader.bytes.toString('latin1', 0, length).trim();
    const last = this.lastChildren.get(pid);
    if (last && last.text === text) return last.list;
    const list = text === '' ? [] : text.split(' ').map(Number);
    this.lastChildren.set(pid, { text, list });
    return list;
  }

  watchExits(targets: ReadonlyMap<number, number>): ExitWatchCoverage {
    this.exitWatch ??= new PidfdExitWatch((pid) => this.startKeyNow(pid));
    return this.exitWatch.follow(targets);
  }

  exitedWatched(): readonly number[] {
    return this.exitWatch ? this.exitWatch.exited() : NONE;
  }

  waitForExits(onExit: () => void): (() => void) | null {
    this.exitWatch ??= new PidfdExitWatch((pid) => this.startKeyNow(pid));
    const watch = this.exitWatch;
    return watch.waitInThread(onExit) ? () => watch.stopWaiting() : null;
  }

  /** The exit watch, for tests and the bench: whether its worker thread waits, and when it stopped. */
  get exitWatchState(): ExitWaitState {
    return this.exitWatch?.threadState ?? NO_EXIT_WAIT;
  }

  /** Throws ProcReadFailed when it could not look: the exit watch then leaves the pid to child lists. */
  private startKeyNow(pid: number): number | null {
    const length = this.fds.readStat(pid);
    if (length === null) return null;
    const f = parseStat(this.reader.bytes, length);
    return f && f.pid === pid && f.exitSignal !== -1 ? f.startTicks : null;
  }

  findHeldPipes(query: HeldPipeQuery): HeldPipe[] {
    return findHeldPipes(query);
  }

  heldPipeLinks(pipe: HeldPipe): string | null {
    return heldPipeLinks(pipe, this.procRoot);
  }

  readMembers(pids: Iterable<number>): MemberStat[] {
    this.memberRead ??= procMemberReader();
    return this.memberRead(pids);
  }

  /**
   * Every process. After a first sweep that listed /proc and kept every process's stat open, a sweep
   * lists nothing: it re-reads the kept descriptors (a gone process reads ESRCH and is dropped) and
   * probes only the pids allocated since the last sweep, from the kernel's pid counter. Listing /proc
   * costs a fifth of a 4,000-process sweep. It lists again whenever it cannot vouch for that: the
   * counter unreadable or too far ahead, a process read without a kept descriptor, or a /proc mounted
   * for another PID namespace than this process's (whose counter /proc/loadavg shows).
   */
  sampleAll(): ProcessRecord[] {
    const fresh = this.sweepCursor === null ? null : this.newPidsSince(this.sweepCursor);
    if (fresh && fresh.pids !== null && this.everyKnownKept()) {
      this.sweepCursor = fresh.cursor;
      const pids = [...this.fds.statPids()];
      for (const pid of fresh.pids) if (!this.fds.hasStat(pid)) pids.push(pid);
      return this.sampleSome(pids);
    }
    const before = this.sweepCursor;
    this.counterUsable ??= counterMatchesProc(this.procRoot);
    this.sweepCursor = this.counterUsable ? this.newPidsSince(null).cursor : null;
    let pids: number[];
    try {
      pids = this.listPids();
    } catch (err) {
      if (!(err instanceof ProcReadFailed)) throw err;
      // Not listed: every process known and the counter's new pids are read (those that cannot be stay
      // unread, never gone), and the next sweep starts from the same place.
      this.sweepCursor = before;
      const known = new Set([...this.cache.keys(), ...this.fds.statPids(), ...(fresh?.pids ?? [])]);
      return this.sampleSome(this.unread.withUnread([...known]));
    }
    const records = this.sampleSome(pids);
    if (this.cache.size > records.length || this.fds.statCount > records.length)
      forgetMissing([...this.cache.keys(), ...this.fds.keptPids()], pids, (pid) => this.forget(pid));
    return records;
  }

  /** Whether every process read so far is read through a kept descriptor, so none can be missed. */
  private everyKnownKept(): boolean {
    for (const pid of this.cache.keys()) if (!this.fds.hasStat(pid)) return false;
    return true;
  }

  sampleSome(pids: Iterable<number>): ProcessRecord[] {
    this.parentsAlive.clear();
    return readEach(pids, (pid) => this.readInBatch(pid));
  }

  /** One process, or null when it vanished (never an error: processes exit while we read). */
  readOne(pid: number): ProcessRecord | null {
    this.parentsAlive.clear();
    return this.readInBatch(pid);
  }

  /**
   * readOne within a batch of reads, which shares what it found of parents. A pid that could not be
   * looked at (ProcReadFailed) is left unread, neither gone nor forgotten: the next look reads it again.
   */
  private readInBatch(pid: number): ProcessRecord | null {
    return this.unread.read(pid, () => this.readNow(pid));
  }

  /** `execRaced`: read again because an exec came while its files were read (see below). */
  private readNow(pid: number, execRaced = false): ProcessRecord | null {
    const cached = this.cache.get(pid);
    // The probe reads before stat: if the process runs in between, the next look sees schedstat moved.
    // A parent gone means a new parent, which only stat shows.
    const sched =
      cached?.record &&
      cached.singleThreaded &&
      !cached.readMidExec &&
      this.probe.usable &&
      this.parentStands(cached.record)
        ? this.probe.read(pid)
        : null;
    if (sched && cached?.record && sameText(cached.schedText, sched.bytes, sched.length))
      return cached.record;
    // A pid read for the first time is most often one the counter announced that has exited already (a
    // fork storm's children live a millisecond): asking whether /proc has it costs a quarter of a failed
    // open, for which Node builds an Error (measured 3.8 µs against 16.8 µs).
    const length = cached || procHasPid(this.procRoot, pid) ? this.fds.readStat(pid) : null;
    if (length === null) {
      // Announced by the counter, so a new process took this pid: it may be being born, not yet in /proc.
      // That holds even when an earlier process of this pid was read (the pid reused after the counter
      // wrapped at pid_max): what was known of it says nothing of the newcomer.
      this.births.missed(pid, performance.now());
      this.forget(pid);
      return null;
    }
    if (this.births.size > 0) this.births.seen(pid);
    let known = this.cache.get(pid);
    // An idle process reads the same stat text sweep after sweep: the record built from it stands.
    if (known?.record && !known.readMidExec && sameText(known.statText, this.reader.bytes, length)) {
      known.schedText = sched ? keepText(known.schedText, sched.bytes, sched.length) : null;
      return known.record;
    }
    const f = parseStat(this.reader.bytes, length, known?.name);
    if (!f || f.pid !== pid) return null;
    // A pid from the kernel's counter may be a thread: /proc/<tid> answers, but it is no process.
    if (f.exitSignal === -1) {
      this.forget(pid);
      return null;
    }

    if (!known || known.startKey !== f.startTicks || known.name !== f.name || known.readMidExec) {
      const fresh = readIdentity(
        this.reader,
        `${this.procRoot}/${pid}`,
        f.startTicks,
        f.name,
        this.options.markerKeys,
        isZombie(f),
      );
      if (!fresh) return null;
      // Exec'd while its files were read (stat and cmdline of the old image, environ of the new, which
      // made a tool call's shell look like its agent): read whole again, once, not kept as two images.
      if (!execRaced && this.nameNow(pid, f.name) !== f.name) return this.readNow(pid, true);
      fresh.readMidExec = readInExecWindow({ pid, ppid: f.ppid, state: f.state, argv: fresh.argv });
      this.cache.set(pid, fresh);
      known = fresh;
    }
    const record = procRecord(pid, f, known, ttyOf(known, f.ttyNr), this.units);
    // A zombie waits for no CPU: its schedstat is not worth opening.
    const waitMs = isZombie(f) ? null : this.runQueueWaitOf(pid, sched);
    if (waitMs !== null) record.runQueueWaitMs = waitMs;
    known.statText = keepText(known.statText, this.reader.bytes, length);
    known.record = record;
    known.singleThreaded = f.threads === 1;
    known.schedText = sched && known === cached ? keepText(known.schedText, sched.bytes, sched.length) : null;
    return record;
  }

  /** The name its kept stat shows now (`read` where none is kept): exec changes it. */
  private nameNow(pid: number, read: string): string {
    const length = this.fds.rereadStat(pid);
    return (length !== null && parseStat(this.reader.bytes, length, read)?.name) || read;
  }

  /**
   * The run-queue wait of a process whose record is being built: from the schedstat the probe read just
   * before stat, or read now (a process of several threads, or one read for the first time), without
   * keeping a descriptor for it. A read after stat is not kept as the probe's text: the probe's text must
   * come before the stat it vouches for.
   */
  private runQueueWaitOf(pid: number, sched: { bytes: Buffer; length: number } | null): number | null {
    if (!this.probe.usable) return null;
    const text = sched ?? this.probe.readNow(pid);
    return text === null ? null : runDelayMs(text.bytes, text.length);
  }

  /**
   * Whether a record's parent is still the process it names, so that it has not been reparented. Its
   * pid answering through our kept descriptor is not enough: that pid may have been freed and taken by
   * a newer process, read since. A parent starts no later than its child, while a process that took the
   * parent's pid after it exited started later (within the same clock tick would take the kernel's pid
   * counter wrapping around within 10 ms). A parent the exit watch's thread waits for is taken as alive
   * without a read: its exit is told, and it is read again from then on.
   */
  private parentStands(child: ProcessRecord): boolean {
    const ppid = child.ppid;
    // 0 (no parent), init and kthreadd: none of them exits while this program runs.
    if (ppid <= 2) return true;
    const memo = this.parentsAlive.get(ppid);
    if (memo !== undefined) return memo;
    const parent = this.cache.get(ppid);
    let alive = false;
    if (parent !== undefined && parent.startKey <= child.startKey && this.fds.hasStat(ppid)) {
      if (this.exitWatch?.waitsFor(ppid, parent.startKey)) {
        // Its exit wakes the monitor, which then reads its children (read here, it is no longer
        // followed): its stat, the dearest file of a multi-threaded agent, need not be read meanwhile.
        alive = true;
      } else {
        const length = this.fds.rereadStat(ppid);
        // A parent's children are handed on as it becomes a zombie, not when it is reaped.
        const state = length === null ? null : statState(this.reader.bytes, length);
        alive = state !== null && state !== 'Z' && state !== 'X';
      }
    }
    this.parentsAlive.set(ppid, alive);
    return alive;
  }

  private forget(pid: number): void {
    this.cache.delete(pid);
    this.probe.forget(pid);
    this.lastChildren.delete(pid);
    this.fds.release(pid);
  }

  /**
   * The schedstat text read with the record last built or kept: its run time (`se.sum_exec_runtime`) moves
   * whenever the process runs (see schedstat-probe). Only for a process of one thread, read by the probe.
   */
  runMark(pid: number): string | null {
    const known = this.cache.get(pid);
    return known?.singleThreaded && known.schedText ? known.schedText.toString('latin1') : null;
  }

  readCwd(pids: Iterable<number>): Map<number, string | null> {
    return readCwds(pids, this.procRoot);
  }

  listeningPorts(pids: Iterable<number>): Map<number, ListeningPort[]> {
    this.portReader ??= new ListeningPortReader(this.procRoot);
    return this.portReader.read(pids);
  }

  /** Releases every kept descriptor. */
  close(): void {
    for (const pid of this.fds.keptPids()) this.forget(pid);
    this.probe.close();
    this.exitWatch?.close();
    if (this.loadavgFd !== null) closeSync(this.loadavgFd);
    this.loadavgFd = null;
  }
}

const NONE: readonly number[] = Object.freeze([]);
