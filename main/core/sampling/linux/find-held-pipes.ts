import { listPipeFds, type PipeFd } from './pipe-fds';
import { matchHeldPipes, type HeldPipe, type PipeListing } from '../match-held-pipes';
import { readUnixSocketPeers } from './unix-socket-peers';
import type { HeldPipeQuery } from '../process-record';

export interface HeldPipeSources {
  listPipes: (pid: number) => PipeFd[] | null;
  socketPeers: () => ReadonlyMap<number, number> | null;
}

const fromProc: HeldPipeSources = { listPipes: (pid) => listPipeFds(pid), socketPeers: readUnixSocketPeers };

/** Reads the given pids' pipes and sockets and returns those a holder keeps open on a reader. */
export function findHeldPipes({ readerPids, holderPids }: HeldPipeQuery, sources = fromProc): HeldPipe[] {
  if (holderPids.length === 0) return [];
  const readers: PipeListing[] = readerPids.map((pid) => ({ pid, pipes: sources.listPipes(pid) }));
  if (!readers.some((r) => r.pipes?.some((p) => p.end !== 'write'))) return [];
  const holders: PipeListing[] = holderPids.map((pid) => ({ pid, pipes: sources.listPipes(pid) }));
  // The socket dump is the one system-wide read: only when a holder has a socket at all.
  const needsPeers = holders.some((h) => h.pipes?.some((p) => p.kind === 'socket'));
  const peers = needsPeers ? (sources.socketPeers() ?? undefined) : undefined;
  return matchHeldPipes(readers, holders, peers);
}
