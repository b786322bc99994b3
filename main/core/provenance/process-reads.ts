import type { ListeningPort } from '../../../shared/model';
import { identityKey } from '../model/identity';
import type { ProcessRecord } from '../model/process-record';
import type { ProcessSampler } from '../sampling/process-sampler';

/** How long one process's cwd and ports are trusted before they are read again. */
export const PROCESS_REFRESH_MS = 10_000;
/**
 * How long they are trusted while the process has not run since (its run mark stands): a bound for what
 * another process can change in it all the same (one that shares its descriptor table, CLONE_FILES).
 */
export const QUIET_PROCESS_REFRESH_MS = 60_000;

/** When a process's cwd or ports were read, and its run mark then (see ProcessSampler.runMark). */
interface ReadAt {
  pid: number;
  /** Of the record the pid had when read: a pid taken by a newer process is another key. */
  startKey: number | null;
  at: number;
  mark: string | null;
}

export type ProcessReadSampler = Pick<ProcessSampler, 'readCwd' | 'listeningPorts' | 'runMark'>;

/**
 * Processes' cwd and listening ports, each process's kept for `refreshMs`: a leftover rarely changes
 * either, and reading them costs a readdir and a readlink per descriptor (measured in the bench's
 * provenance rows). Kept longer, up to QUIET_PROCESS_REFRESH_MS, while the sampler's run mark shows the
 * process has not run since they were read: only the process itself changes them.
 */
export class ProcessReads {
  private readonly cwdCache = new Map<string, ReadAt & { value: string | null }>();
  private readonly portCache = new Map<string, ReadAt & { value: ListeningPort[] }>();

  constructor(
    private readonly refreshMs: number,
    private readonly now: () => number,
  ) {}

  read(
    agentPids: readonly number[],
    portPids: readonly number[],
    byPid: ReadonlyMap<number, ProcessRecord>,
    sampler: ProcessReadSampler,
  ): { cwds: Map<number, string | null>; ports: Map<number, ListeningPort[]> } {
    const now = this.now();
    const keyOf = (pid: number): string => {
      const r = byPid.get(pid);
      return r ? identityKey(pid, r.startKey) : `${pid}`;
    };
    const marks = new Map<number, string | null>();
    const markOf = (pid: number): string | null => {
      if (!marks.has(pid)) marks.set(pid, sampler.runMark?.(pid) ?? null);
      return marks.get(pid)!;
    };
    const readNow = (pid: number): ReadAt => ({
      pid,
      startKey: byPid.get(pid)?.startKey ?? null,
      at: now,
      mark: markOf(pid),
    });
    const stale = (pids: readonly number[], cache: Map<string, ReadAt>): number[] =>
      pids.filter((pid) => {
        const hit = cache.get(keyOf(pid));
        if (hit === undefined) return true;
        const age = now - hit.at;
        const quiet = hit.mark !== null && hit.mark === markOf(pid);
        return age >= (quiet ? Math.max(this.refreshMs, QUIET_PROCESS_REFRESH_MS) : this.refreshMs);
      });
    const freshCwds = sampler.readCwd?.(stale(agentPids, this.cwdCache)) ?? new Map<number, string | null>();
    for (const [pid, cwd] of freshCwds) this.cwdCache.set(keyOf(pid), { ...readNow(pid), value: cwd });
    const portsToRead = stale(portPids, this.portCache);
    const freshPorts = sampler.listeningPorts?.(portsToRead) ?? new Map<number, ListeningPort[]>();
    for (const pid of portsToRead) {
      const held = freshPorts.get(pid);
      if (held) this.portCache.set(keyOf(pid), { ...readNow(pid), value: held });
      else this.portCache.delete(keyOf(pid));
    }
    const cwds = new Map<number, string | null>();
    for (const pid of agentPids) {
      const hit = this.cwdCache.get(keyOf(pid));
      if (hit) cwds.set(pid, hit.value);
    }
    const ports = new Map<number, ListeningPort[]>();
    for (const pid of portPids) {
      const hit = this.portCache.get(keyOf(pid));
      if (hit) ports.set(pid, hit.value);
    }
    // What was read of processes that are gone is dropped. A live process's stays though it was not asked
    // for now: the caller may ask for some groups only (the ones whose views it built afresh).
    for (const cache of [this.cwdCache, this.portCache])
      for (const [k, hit] of cache) if (byPid.get(hit.pid)?.startKey !== hit.startKey) cache.delete(k);
    return { cwds, ports };
  }
}
