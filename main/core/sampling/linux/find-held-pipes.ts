import { listPipeFds } from './pipe-fds';
import type { PipeFd } from '../../model/held-pipe';
import { matchHeldPipes, type PipeListing } from '../../analysis/held-pipes/match-held-pipes';
import type { HeldPipe } from '../../model/held-pipe';
import { readUnixSocketPeers, readUnixSocketPeersOf } from './unix-socket-peers';
import type { HeldPipeQuery } from '../process-sampler';

export interface HeldPipeSources {
  /** `wantedPipe`: the pipes (by inode) whose end is worth reading; the others may be left out. */
  listPipes: (pid: number, wantedPipe?: (inode: number) => boolean) => PipeFd[] | null;
  /** Peers of these sockets (by inode); others may be left out. */
  socketPeers: (inodes: ReadonlySet<number>) => ReadonlyMap<number, number> | null;
}

const fromProc: HeldPipeSources = {
  listPipes: (pid, wantedPipe) => listPipeFds(pid, '/proc', wantedPipe),
  socketPeers: (inodes) => readUnixSocketPeersOf(inodes) ?? readUnixSocketPeers(),
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
  // Sockets are paired by the kernel's diagnostics: asked only about the holders' own sockets.
  const holderSockets = new Set<number>();
  for (const h of holders)
    for (const p of h.pipes ?? []) if (p.kind === 'socket' && p.end !== 'read') holderSockets.add(p.inode);
  const peers = holderSockets.size > 0 ? (sources.socketPeers(holderSockets) ?? undefined) : undefined;
  return matchHeldPipes(readers, holders, peers);
}
