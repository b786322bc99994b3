import { listPipeFds } from './pipe-fds';
import type { PipeFd } from '../../model/held-pipe';
import { matchHeldPipes, type PipeListing } from '../../analysis/held-pipes/match-held-pipes';
import type { HeldPipe } from '../../model/held-pipe';
import { readUnixSocketPeers } from './unix-socket-peers';
import type { HeldPipeQuery } from '../process-sampler';

export interface HeldPipeSources {
  /** `wantedPipe`: the pipes (by inode) whose end is worth reading; the others may be left out. */
  listPipes: (pid: number, wantedPipe?: (inode: number) => boolean) => PipeFd[] | null;
  socketPeers: () => ReadonlyMap<number, number> | null;
}

const fromProc: HeldPipeSources = {
  listPipes: (pid, wantedPipe) => listPipeFds(pid, '/proc', wantedPipe),
  socketPeers: readUnixSocketPeers,
};

/** Reads the given pids' pipes and sockets and returns those a holder keeps open on a reader. */
export function findHeldPipes({ readerPids, holderPids }: HeldPipeQuery, sources = fromProc): HeldPipe[] {
  if (holderPids.length === 0) return [];
  const readers: PipeListing[] = readerPids.map((pid) => ({ pid, pipes: sources.listPipes(pid) }));
  if (!readers.some((r) => r.pipes?.some((p) => p.end !== 'write'))) return [];
  // A holder's pipe can only be held on a reader if the reader has that pipe's read end: the others'
  // ends are not read (a read per descriptor, and holders are many).
  const readPipes = new Set<number>();
  for (const r of readers)
    for (const p of r.pipes ?? []) if (p.kind === 'pipe' && p.end !== 'write') readPipes.add(p.inode);
  const holders: PipeListing[] = holderPids.map((pid) => ({
    pid,
    pipes: sources.listPipes(pid, (inode) => readPipes.has(inode)),
  }));
  // The socket dump is the one system-wide read: only when a holder has a socket at all.
  const needsPeers = holders.some((h) => h.pipes?.some((p) => p.kind === 'socket'));
  const peers = needsPeers ? (sources.socketPeers() ?? undefined) : undefined;
  return matchHeldPipes(readers, holders, peers);
}
