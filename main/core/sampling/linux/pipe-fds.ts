import { readFileSync } from 'node:fs';
import type { PipeEnd, PipeFd } from '../../model/held-pipe';
import { forEachFdLink } from './fd-links';

const CHANNEL_LINK = /^(pipe|socket):\[(\d+)\]$/;
const FLAGS_LINE = /^flags:\s+([0-7]+)$/m;
const O_ACCMODE = 0o3;
const ENDS: Record<number, PipeEnd> = { 0: 'read', 1: 'write', 2: 'rdwr' };

/**
 * The pipes and sockets a process holds open, with the end of each, ordered by fd. Returns null when
 * the process is gone or its descriptors are unreadable (another user's process); descriptors closed
 * while we read are skipped. One readlink per descriptor and one small read per pipe (only the pipes
 * `wantedPipe` takes, by inode): call it for a few pids, not the whole table.
 */
export function listPipeFds(
  pid: number,
  procRoot = '/proc',
  wantedPipe: (inode: number) => boolean = () => true,
): PipeFd[] | null {
  const found: PipeFd[] = [];
  const readable = forEachFdLink(pid, procRoot, (name, link) => {
    const match = CHANNEL_LINK.exec(link);
    if (!match) return;
    const fd = Number(name);
    const inode = Number(match[2]);
    // A socket's file is always opened read-write (sock_alloc_file in the kernel's net/socket.c): its
    // fdinfo has nothing to tell.
    if (match[1] === 'socket') {
      found.push({ fd, kind: 'socket', inode, end: 'rdwr' });
      return;
    }
    if (!wantedPipe(inode)) return;
    const end = readEnd(`${procRoot}/${pid}/fdinfo/${name}`);
    if (end) found.push({ fd, kind: 'pipe', inode, end });
  });
  return readable ? found.sort((a, b) => a.fd - b.fd) : null;
}

/** fdinfo's `flags:` is the octal open(2) mask (proc_pid_fdinfo(5)); its access mode tells the end. */
export function parsePipeEnd(fdinfo: string): PipeEnd | null {
  const octal = FLAGS_LINE.exec(fdinfo)?.[1];
  if (octal === undefined) return null;
  return ENDS[parseInt(octal, 8) & O_ACCMODE] ?? null;
}

function readEnd(path: string): PipeEnd | null {
  try {
    return parsePipeEnd(readFileSync(path, 'latin1'));
  } catch {
    return null;
  }
}
