import type { ListeningPort } from '../../../shared/model';
import type { HeldPipe } from '../model/held-pipe';
import type { ProcessRecord } from '../model/process-record';

export interface SamplerOptions {
  /** Environment variable names worth extracting from each process (agent markers). */
  markerKeys: ReadonlySet<string>;
  /**
   * Told the kernel's last-allocated pid each time the sampler reads it (Linux: newPidsSince), at once
   * after the read: the hook server's walk floor takes these readings (pid-counter-feed.ts).
   */
  onPidCounter?: (lastPid: number) => void;
}

export interface ProcessSampler {
  readonly platform: NodeJS.Platform;
  /** Every process in the table. Processes that vanish mid-read are skipped. */
  sampleAll(): ProcessRecord[];
  /** Only the given pids (those still alive). */
  sampleSome(pids: Iterable<number>): ProcessRecord[];
  /**
   * All current pids, as cheaply as the platform allows. Throws (ProcReadFailed) when the table could not
   * be listed for a reason of Corral's own (out of descriptors), never a short list.
   */
  listPids(): number[];
  /**
   * Pids the reads so far could not look at for a reason of Corral's own, not the process's (out of file
   * descriptors: EMFILE, ENFILE): neither gone nor new. Each is read again at every look (in newPidsSince's
   * and sampleAll's pids) until a read answers. Empty while every read succeeds.
   */
  unreadPids?(): ReadonlySet<number>;
  /** Why those pids are unread (what the latest such read met); null while none is. */
  readonly readFailure?: string | null;
  /**
   * Direct children of one process, far cheaper than a table scan (Linux: /proc/<pid>/task/<pid>/children).
   * null when the process is gone or the platform has no such interface.
   */
  childrenOf?(pid: number): number[] | null;
  /**
   * Pids allocated since `cursor` (a value this method returned before), from the kernel's last-pid
   * counter: far cheaper than listing the table. `pids` is null when it cannot tell (first call, or
   * too many allocations to be worth probing one by one): list the table instead.
   */
  newPidsSince?(cursor: number | null): { cursor: number; pids: number[] | null };
  /**
   * Follows exactly these processes (pid → startKey) for their exit, in place of any set before: 'all'
   * when every one is followed, 'some' when some could not be (descriptor budget, permissions), and
   * 'unavailable' when the platform cannot; then child lists must be read instead.
   */
  watchExits?(targets: ReadonlyMap<number, number>): ExitWatchCoverage;
  /** Followed processes that exited since the last call, found with one system call. */
  exitedWatched?(): readonly number[];
  /**
   * Followed processes that may have children not seen yet (macOS: NOTE_FORK, and each process once
   * when first followed, for what it forked before): their child lists are worth reading. Where this
   * exists, the wait for exits (waitForExits) also wakes on forks.
   */
  forkedWatched?(): readonly number[];
  /**
   * Waits for the followed processes' exits in a thread of its own (Linux: a blocking poll over their
   * pidfds), calling `onExit` on the caller's thread soon after one exited; exitedWatched() then returns
   * it without asking the kernel. Returns the function that stops waiting, or null where the platform
   * cannot wait (then exitedWatched() must be called on a timer).
   */
  waitForExits?(onExit: () => void): (() => void) | null;
  /**
   * Working directory of each of `pids` (null where unreadable). Costs a readlink a process: call it
   * for agents' processes, not the whole table.
   */
  readCwd?(pids: Iterable<number>): Map<number, string | null>;
  /**
   * Listening sockets (TCP listen, bound unconnected UDP) of each of `pids`; pids whose descriptors
   * cannot be read are absent. Reads only these pids' descriptors, and the socket tables at most once a
   * call (Linux: only for sockets not seen before, or that may have changed since they were).
   */
  listeningPorts?(pids: Iterable<number>): Map<number, ListeningPort[]>;
  /**
   * A mark of how far `pid` had run when it was last read: the same mark at a later read, and it has not
   * run in between (Linux: its schedstat line, for a process of one thread); null where nothing proves it.
   * Only a process itself changes its cwd and its descriptors, so what was read of them under a mark still
   * holds while the mark stands.
   */
  runMark?(pid: number): string | null;
  /**
   * Which of the holders keep open a pipe or socket one of the readers reads (Linux: their fd tables
   * and the unix-socket peer dump). Omitted where the platform has no such lookup.
   */
  findHeldPipes?(query: HeldPipeQuery): HeldPipe[];
  /**
   * What a found pipe's holder and reader descriptors link to now, as one text; null when either is gone.
   * The same text later, and the pipe is still held: far cheaper than findHeldPipes to tell it let go.
   */
  heldPipeLinks?(pipe: HeldPipe): string | null;
  /**
   * The few fields watching a group's members needs, read more cheaply than full records (Linux:
   * /proc/<pid>/stat only). Omitted where a full record costs no more; then sampleSome serves.
   */
  readMembers?(pids: Iterable<number>): MemberStat[];
  /** Releases what the sampler holds open (descriptors), when it is done with. */
  close?(): void;
}

export type ExitWatchCoverage = 'all' | 'some' | 'unavailable';

export interface HeldPipeQuery {
  /** The agent's pid, and the tool-call wrapper's pid while it is still alive. */
  readerPids: readonly number[];
  /** The agent's descendants whose tool-call wrapper has exited. */
  holderPids: readonly number[];
}

/** What watching a member needs: who it is, where it is, whether it is dead. */
export type MemberStat = Pick<ProcessRecord, 'pid' | 'ppid' | 'pgid' | 'sid' | 'state' | 'startKey'> & {
  uid?: number;
};
