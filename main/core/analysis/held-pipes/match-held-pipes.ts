import type { HeldPipe, PipeFd } from '../../model/held-pipe';

/** The pipe descriptors of one process; null when they could not be read. */
export interface PipeListing {
  pid: number;
  pipes: readonly PipeFd[] | null;
}

interface ReaderEnd {
  pid: number;
  fd: number;
}

/**
 * Matches the holders' write ends against the readers' read ends. While any write end is open the
 * reader never sees EOF, so each such holder descriptor is one held pipe. A pipe's ends share an
 * inode; a socketpair's ends are paired through `socketPeers` (inode → peer inode). Readers are
 * preferred in `readers` order (the agent before its wrapper); a holder that is also a reader is skipped.
 */
export function matchHeldPipes(
  readers: readonly PipeListing[],
  holders: readonly PipeListing[],
  socketPeers: ReadonlyMap<number, number> = new Map(),
): HeldPipe[] {
  const readEnds = new Map<string, ReaderEnd>();
  for (const { pid, pipes } of readers) {
    for (const p of pipes ?? []) {
      const key = `${p.kind}:${p.inode}`;
      if (p.end !== 'write' && !readEnds.has(key)) readEnds.set(key, { pid, fd: p.fd });
    }
  }
  if (readEnds.size === 0) return [];

  const readerPids = new Set(readers.map((r) => r.pid));
  const held: HeldPipe[] = [];
  for (const { pid, pipes } of holders) {
    if (readerPids.has(pid)) continue;
    for (const p of pipes ?? []) {
      if (p.end === 'read') continue;
      const other = p.kind === 'pipe' ? p.inode : socketPeers.get(p.inode);
      const reader = other === undefined ? undefined : readEnds.get(`${p.kind}:${other}`);
      if (reader) {
        held.push({
          holderPid: pid,
          holderFd: p.fd,
          kind: p.kind,
          inode: p.inode,
          readerPid: reader.pid,
          readerFd: reader.fd,
        });
      }
    }
  }
  return held;
}
